"""Calls of the ranking functions with tensors on an accelerator, run by the
exact on-device program (``turbometrics.torch.functional``).

``roc_auc_score``, ``average_precision_score``, ``roc_curve`` and
``precision_recall_curve`` are decorated with :func:`routes_device_tensors`:
when one of their arguments is a torch tensor on a device other than the
CPU, the call goes to the function of the same name and signature in
``turbometrics.torch.functional``, which computes on that device (or on a
host copy where it must), and its result comes back as for host input: a
float, or NumPy arrays. Other functions read such tensors through a host
copy (:mod:`.array_inputs`).

The program's module imports the ranking area (for its host fallback), so
it is looked up by name when a device tensor first arrives, not imported
here: ``_common`` stays below every area, and ``import turbometrics`` never
imports torch.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from typing import Any, TypeVar

Function = TypeVar("Function", bound=Callable[..., Any])

PROGRAMS = "turbometrics.torch.functional"


def on_accelerator(value: Any) -> bool:
    """Whether ``value`` is a torch tensor on a device other than the CPU
    (recognised without importing torch)."""
    if type(value).__module__.partition(".")[0] != "torch":
        return False
    device = getattr(value, "device", None)
    return device is not None and getattr(device, "type", "cpu") != "cpu"


def device_program(name: str, args: tuple, kwargs: dict[str, Any]) -> Callable[..., Any] | None:
    """The on-device function that computes the call ``name(*args,
    **kwargs)``, or None when no argument is a tensor on an accelerator."""
    if not any(on_accelerator(value) for value in (*args, *kwargs.values())):
        return None
    function: Callable[..., Any] = getattr(importlib.import_module(PROGRAMS), name)
    return function


def _on_host(result: Any) -> Any:
    """A device program's tensors as the host function returns them: a
    0-dimensional tensor as a float, others as NumPy arrays."""
    if isinstance(result, tuple):
        return tuple(_on_host(part) for part in result)
    array = result.detach().cpu().numpy()
    return float(array) if array.ndim == 0 else array


def routes_device_tensors(function: Function) -> Function:
    """Run ``function``'s calls with a tensor on an accelerator on the device
    (see the module's description)."""
    name = function.__name__

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        program = device_program(name, args, kwargs)
        if program is None:
            return function(*args, **kwargs)
        return _on_host(program(*args, **kwargs))

    return wrapper  # type: ignore[return-value]  # functools.wraps keeps function's signature, which mypy cannot see
