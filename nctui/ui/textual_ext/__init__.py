"""What nctui adds to Textual, or changes in it, for speed and for terminals that go away: each
module names the Textual internals it relies on (README.md lists them with the tests that guard
them). Textual is pinned exactly (pyproject.toml)."""
