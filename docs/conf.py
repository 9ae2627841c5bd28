"""Sphinx configuration of the turbometrics documentation (build: ``bash .ci/docs``)."""

from __future__ import annotations

import turbometrics

project = "turbometrics"
author = "turbometrics contributors"
copyright = "turbometrics contributors"
release = turbometrics.__version__
version = release

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.napoleon",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
# docs/examples/ holds scripts, not pages.
exclude_patterns = ["_build", "examples"]

# Markdown: GitHub-style heading anchors, so that links such as
# ``exactness.md#exactness`` work both here and on GitHub.
myst_heading_anchors = 4
myst_enable_extensions = ["colon_fence"]

# API reference from the docstrings (NumPy style).
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_typehints_description_target = "documented"
autosummary_generate = False
napoleon_google_docstring = False
napoleon_numpy_docstring = True
napoleon_use_rtype = False
# "Attributes" sections render like "Parameters" (a list of names, types and
# descriptions, "a, b : float" included), not as attribute entries that would
# duplicate autodoc's entries for the same attributes.
napoleon_custom_sections = [("Attributes", "params_style")]

# Warnings are errors (sphinx-build -W) and every cross reference to
# turbometrics must resolve (nitpicky), except:
# * the prose types of NumPy docstrings ("array-like of shape (n_samples,)",
#   "{'micro', 'macro'}, default=None"), which Sphinx reads as class names;
# * other projects' objects (no intersphinx: the build runs without network).
EXTERNAL_PACKAGES = [
    "sklearn",
    "numpy",
    "np",
    "scipy",
    "math",
    "dask",
    "distributed",
    "os",
    "pathlib",
    "matplotlib",
    "pycocotools",
    "pandas",
    "polars",
    "pyarrow",
    "torch",
    "ray",
    "pyspark",
    "faster_coco_eval",
    "torchmetrics",
]
EXTERNAL = rf"({'|'.join(EXTERNAL_PACKAGES)})(\..*)?"
nitpicky = True
nitpick_ignore_regex = [
    ("py:class", r"(?!turbometrics\.).*"),
    ("py:(func|meth|attr|data|exc|mod|obj)", EXTERNAL),
]

html_theme = "furo"
html_title = f"turbometrics {release}"


def _skip_named_tuple_fields(app, what, name, obj, skip, options):  # noqa: ARG001
    """Leave out a named tuple's field accessors ("Alias for field number 0"):
    the class's Attributes section describes the fields."""
    if (getattr(obj, "__doc__", None) or "").startswith("Alias for field number"):
        return True
    return None


def setup(app):
    app.connect("autodoc-skip-member", _skip_named_tuple_fields)
