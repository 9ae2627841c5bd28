"""torch tensors in, torch tensors out: the exact metric classes and, in
``turbometrics.torch.functional``, the exact on-device ranking program.

torch is imported by this package only; ``import turbometrics`` does not
import it.
"""

__all__: list[str] = []
