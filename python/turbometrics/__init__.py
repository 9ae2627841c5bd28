"""turbometrics."""
from turbometrics import _core
