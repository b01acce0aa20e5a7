"""An installable boundcalc plugin (docs/plugins.md): the bound and the algorithm of examples/my_plugin.py ("Doe 2027",
a fictional paper), registered through the entry-point groups ``boundcalc.bounds`` and ``boundcalc.algorithms``
(pyproject.toml). ``doe2027`` is that same file (a symbolic link, so the two cannot drift apart)."""
