"""Mutation testing of the rules: change the rule-bearing code and the rule tables, run the tests, count.

``python -m engine.mutation`` makes small changes (*mutants*) to the code in ``engine/take6/`` and
``engine/petersburg/`` and to the tables in ``spec/``, runs the game's tests against each one in a scratch
copy of the repository, and prints the score (mutants killed by a failing test) and the survivors — each
one a rule change no test notices, or a change that means nothing (an *equivalent* mutant, listed with its
reason in ``engine/mutation/equivalents.toml``)::

    python -m engine.mutation                      # everything (slow: every mutant of both games)
    python -m engine.mutation --sample 200         # a seeded random sample of 200 code and table mutants
    python -m engine.mutation --only spec/take6    # one folder or file
    python -m engine.mutation --list               # the mutants, without running anything
    python -m engine.mutation --jobs 2 --budget 8 --journal J.jsonl   # a quick pass, resumable
    python -m engine.mutation --jobs 2 --journal J.jsonl --skip-equivalent   # then its survivors, fully

The package, from the bottom up:

* :mod:`engine.mutation.mutant`: a mutant (where, what it was, what it became, the mutated text on demand);
* :mod:`engine.mutation.code`: the code mutants (an AST rewrite of one node);
* :mod:`engine.mutation.tables`: the table mutants (an edit of one value of a TOML table), usable on their
  own by any tool that runs the rules on edited tables;
* :mod:`engine.mutation.coverage`: which tests run each line (the coverage map);
* :mod:`engine.mutation.worker`: the forked test runs;
* :mod:`engine.mutation.report`: the journal, the equivalents, the score;
* :mod:`engine.mutation.driver`: the selection of mutants and tests, the run, the command line.

The driver is a small one rather than mutmut: mutmut mutates Python only (half of the rules are TOML tables
here).
"""
