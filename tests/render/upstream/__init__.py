"""The operator's render unit-test rows (reference data in ../shared) run against our render code.

``_support`` reads the rows and holds the adapter registry and the helpers the adapters share;
``state`` is the project's own record per test function and row (out of scope, expected to fail);
the other modules hold the adapters, one per upstream test function, grouped by what they exercise.
``tests/render/test_upstream_<area>.py`` run them (``test_upstream_index.py`` checks the index).
"""
