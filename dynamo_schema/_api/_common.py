"""What the public functions share: the input types and the in-memory document."""

from __future__ import annotations

from typing import Any, Literal, Protocol, Union

from .._core._diagnostics import Diagnostic
from .._core._document import Document


class SupportsToDict(Protocol):
    """A typed model (``dynamo_schema.models``, ``DeploymentSpec``): ``to_dict()`` gives its Kubernetes JSON."""

    def to_dict(self) -> dict[str, Any]: ...


#: A manifest as plain JSON-like data (``yaml.safe_load`` of one document) or as a typed model.
Manifest = Union[dict[str, Any], SupportsToDict]

#: What ``render`` produces for a DynamoGraphDeployment (``kubernetes``: the operator with Grove off,
#: ``grove``: with Grove on, ``dcd``: only the child DynamoComponentDeployments); a DCD renders to
#: ``kubernetes`` only. ``None``: the pathway the operator would take.
Target = Literal["kubernetes", "grove", "dcd"]

#: ``convert``'s target versions.
ApiVersion = Literal["nvidia.com/v1beta1", "nvidia.com/v1alpha1"]


def plain(obj: Any) -> Any:
    """A typed model's Kubernetes JSON; plain data as it is."""
    to_dict = getattr(obj, "to_dict", None)
    return to_dict() if callable(to_dict) else obj


class InMemoryDocument(Document):
    """A document given as data, not read from text: it has no source positions, so its diagnostics
    carry ``file``/``line``/``column`` ``None`` (no made-up ``<object>:1:1``)."""

    __slots__ = ()

    def place(self, diag: Diagnostic) -> Diagnostic:
        return diag.located(self.file or None, None, None)


def in_memory(obj: Any, index: int = 0) -> Document:
    return InMemoryDocument(plain(obj), file="", index=index)
