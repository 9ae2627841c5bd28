"""Type stubs for the compiled kernels (private API): one submodule per area,
each checked against the compiled module by .ci/stubtest."""

from . import calibration as calibration
from . import classification as classification
from . import coco as coco
from . import density as density
from . import labels as labels
from . import mask as mask
from . import ranking as ranking
from . import stability as stability
from . import states as states
from . import threads as threads
