# The corners of scikit-learn the toolkit calls (fitting the intent models and measuring them),
# typed for pyright. The library ships no types of its own, so pyright would otherwise bind and
# infer scikit-learn and SciPy to type a dozen calls: a quarter of the suite's type check.
# tests/project/test_static_checks.py holds every stubbed signature to the installed library's.
