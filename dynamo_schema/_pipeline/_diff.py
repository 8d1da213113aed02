"""``diff OLD NEW``: what an update changes in the rendered objects and what that does to a running
deployment.

For one object (DGD, DCD, DGDR, ``nvidia.com/v1beta1`` or ``v1alpha1``) OLD is admitted as it was
created (its *stored* form: schema and webhook defaults), NEW is applied over it the way ``kubectl apply``
updates a custom resource (three-way JSON merge patch: fields only the server wrote are kept), the
mutating webhook runs, and the update is checked as the API server would (schema, CEL with ``oldSelf``,
the webhook's UPDATE rules). Both sides are rendered for the same target (a running DGD keeps the
pathway of its ``nvidia.com/workload-provider`` annotation) and the rendered objects are matched by
``(apiVersion, kind, namespace, name)``. Then, per component (``_pipeline/_diff_impact.py``):

* a changed pod template (Deployment ``spec.template``, LeaderWorkerSet leader/worker templates, the
  Grove PodClique pod-template hash inputs: clique labels, annotations, ``podSpec`` and the PCS
  ``priorityClassName``) means its pods are rolled (Grove ``RollingRecreate``; under ``OnDelete`` they
  are replaced only when deleted);
* a changed worker hash renames the worker's DCD / Deployment (``<dgd>-<comp>-<hash>``): the new one is
  created and the old one removed, so its pods are replaced;
* a change of replicas only scales, nothing restarts;
* a new ``spec.restart.id`` asks the operator to restart every component.

A PodCliqueSet updated in place goes through Grove's validating webhook (``pcs.validating.webhooks.grove.io``,
``dynamo_schema._grove._update``): the immutable fields it refuses are reported with Grove's messages and
paths.

Other documents in the files (ConfigMap, Secret…) are compared as they are.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Any

from .._core._diagnostics import Diagnostic
from .._core._kinds import ADMITTED_KINDS as NVIDIA_KINDS  # the one list of kinds (D50)
from .._grove._update import WEBHOOK as GROVE_WEBHOOK
from ._diff_impact import (
    IMPACT_NONE,
    ComponentImpact,
    ObjKey,
    changed_paths,
    component_impacts,
    field_texts,
    meta_of,
    object_key,
    restart_request,
)
from ._reconcile import operator_target


# ------------------------------------------------------------------------------------------ results
@dataclass
class ObjectChange:
    """One rendered object that is added, removed or changed."""

    api_version: str
    kind: str
    namespace: str
    name: str
    change: str  # added | removed | changed
    diff: str
    fields: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"apiVersion": self.api_version, "kind": self.kind, "namespace": self.namespace,
                "name": self.name, "change": self.change, "fields": list(self.fields), "diff": self.diff}


@dataclass
class DiffReport:
    """The outcome of comparing one old object with its new version."""

    kind: str
    name: str
    target: str | None = None
    objects: list[ObjectChange] = field(default_factory=list)
    components: list[ComponentImpact] = field(default_factory=list)
    #: Grove webhook refusals of the in-place PodCliqueSet update (rule ids ``grove.*``)
    refusals: list[Diagnostic] = field(default_factory=list)
    #: update admission of the Dynamo object (errors refuse the update; warnings are informative)
    admission: list[Diagnostic] = field(default_factory=list)
    #: what could not be done (render failures…), as text
    problems: list[str] = field(default_factory=list)
    change: str = "changed"  # changed | added | removed (the whole document)
    old_file: str | None = None
    new_file: str | None = None
    #: why the old object could not have been admitted (located by ``run_diff``; not in ``to_dict``)
    old_errors: list[Diagnostic] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return (bool(self.objects) or self.change != "changed"
                or any(c.impact != IMPACT_NONE for c in self.components))

    @property
    def admission_errors(self) -> list[Diagnostic]:
        return [d for d in self.admission if d.severity == "error"]

    @property
    def refused(self) -> bool:
        """The update would be refused (Dynamo admission or Grove webhook), or could not be checked."""
        return bool(self.refusals or self.admission_errors or self.problems)

    @property
    def status(self) -> str:
        if self.admission_errors or self.problems:
            return "invalid"
        if self.refusals:
            return "refused"
        if self.change != "changed":
            return self.change
        return "changed" if self.changed else "unchanged"

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "name": self.name,
            "old_file": self.old_file,
            "new_file": self.new_file,
            "target": self.target,
            "status": self.status,
            "objects": [o.to_dict() for o in self.objects],
            "components": [c.to_dict() for c in self.components],
            "refusals": [dict(d.to_dict(), object=d.file, webhook=GROVE_WEBHOOK) for d in self.refusals],
            "admission": [_diag_dict(d) for d in self.admission],
            "errors": list(self.problems),
        }


def _diag_dict(d: Diagnostic) -> dict[str, Any]:
    out = d.to_dict()
    if d.file is not None:
        out["file"] = d.file
    return out


# ------------------------------------------------------------------------------------------ helpers
def _key_text(key: ObjKey) -> str:
    api, kind, ns, name = key
    return f"{kind}/{ns}/{name}" if ns else f"{kind}/{name}"


def _yaml(obj: dict[str, Any]) -> str:
    from .._io._emit import dump_all

    return dump_all([obj])


def unified(old: dict[str, Any] | None, new: dict[str, Any] | None, key: ObjKey, context: int = 3) -> str:
    """Unified diff of the YAML of one object (stable: the emitter's key order, fixed file labels)."""
    a = _yaml(old).splitlines(keepends=True) if old is not None else []
    b = _yaml(new).splitlines(keepends=True) if new is not None else []
    label = _key_text(key)
    lines = difflib.unified_diff(a, b, fromfile=f"old/{label}" if old is not None else "/dev/null",
                                 tofile=f"new/{label}" if new is not None else "/dev/null", n=context)
    text = "".join(line if line.endswith("\n") else line + "\n" for line in lines)
    return text


# ------------------------------------------------------------------------------- admission, render
def _admit(obj: dict[str, Any], settings: Any, old: dict[str, Any] | None) -> tuple[list[Diagnostic], dict[str, Any] | None]:
    from ._validate import ValidateOptions, check_nvidia

    diags, stored = check_nvidia(obj, ValidateOptions(settings=settings, old=old))
    return list(diags), stored


def _render(stored: dict[str, Any], raw: dict[str, Any], target: str | None, namespace: str,
            operator_version: str | None, settings: Any) -> tuple[list[dict[str, Any]], str | None]:
    """Render an admitted object; returns (objects, the target used)."""
    kind = stored.get("kind")
    if kind == "DynamoGraphDeploymentRequest":
        from ._render_object import render_object

        objs = render_object(raw, target=target, namespace=namespace, operator_version=operator_version,
                             settings=settings, validate_output=False)
        # the DGD rendered among the DGDR's resources, for the pathway it was rendered with
        dgd = next((o for o in objs if o.get("kind") == "DynamoGraphDeployment"), {})
        return objs, target or operator_target(dgd)
    if kind == "DynamoGraphDeployment":
        target = target or operator_target(stored)
    else:
        target = target or "kubernetes"
    from .._render import RenderOptions
    from .._render import render as _render_fn

    kwargs: dict[str, Any] = {"namespace": namespace}
    if operator_version:
        kwargs["operator_version"] = operator_version
    if settings is not None:  # the cluster's DRA and checkpoint gates decide what the operator creates
        kwargs["dra_enabled"] = settings.dra_enabled
        kwargs["checkpoint_enabled"] = settings.checkpoint_enabled
    return _render_fn(stored, target, RenderOptions(**kwargs)), target


def _describe(exc: BaseException) -> str:
    diags = getattr(exc, "diagnostics", None) or []
    text = str(exc) or type(exc).__name__
    if diags:
        text += ": " + "; ".join(f"{d.field}: {d.message}" if d.path else d.message for d in diags[:5])
    return text


# ------------------------------------------------------------------------------------ main entry
def _ident(obj: dict[str, Any] | None) -> tuple[str, str]:
    if not isinstance(obj, dict):
        return "", ""
    meta = meta_of(obj)
    return str(obj.get("kind", "")), str(meta.get("name") or obj.get("name") or "")


def diff_objects(old_objs: list[dict[str, Any]], new_objs: list[dict[str, Any]], namespace: str = "",
                 context: int = 3) -> list[ObjectChange]:
    """Match rendered objects by (apiVersion, kind, namespace, name); report what changed."""
    old_map: dict[ObjKey, dict[str, Any]] = {}
    for o in old_objs:
        old_map.setdefault(object_key(o, namespace), o)
    new_map: dict[ObjKey, dict[str, Any]] = {}
    for o in new_objs:
        new_map.setdefault(object_key(o, namespace), o)
    out: list[ObjectChange] = []
    for key in list(dict.fromkeys(list(new_map) + list(old_map))):
        before, after = old_map.get(key), new_map.get(key)
        if before is not None and after is not None and before == after:
            continue
        change = "added" if before is None else "removed" if after is None else "changed"
        fields = field_texts(changed_paths(before, after)) if change == "changed" else []
        out.append(ObjectChange(key[0], key[1], key[2], key[3], change, unified(before, after, key, context), fields))
    return out


def diff_documents(old: dict[str, Any] | None, new: dict[str, Any] | None, *, target: str | None = None,
                   namespace: str = "default", settings: Any = None, operator_version: str | None = None,
                   context: int = 3) -> DiffReport:
    """Compare one object with its new version: rendered objects, component restarts, refusals.

    ``old``/``new`` are plain data (either may be ``None`` for a document that only exists on one side).
    DGD, DCD and DGDR (v1beta1 or v1alpha1) are admitted (the new one as an UPDATE of the stored old
    one, see the module docstring) and rendered for ``target`` (default: the old object's pathway, its
    ``nvidia.com/workload-provider`` annotation, else ``nvidia.com/enable-grove``); any other document
    is compared as it is. ``settings`` is an :class:`~dynamo_schema._admission.AdmissionSettings`
    (default: the documented defaults). Never raises for bad input: problems land in the report.
    """
    kind, name = _ident(new if new is not None else old)
    report = DiffReport(kind=kind, name=name)
    if settings is None:
        from .._admission import AdmissionSettings

        settings = AdmissionSettings()
    if old is None and new is None:
        report.change = "unchanged"
        return report
    if old is None:
        report.change = "added"
    elif new is None:
        report.change = "removed"

    def dynamo(obj: dict[str, Any] | None) -> bool:
        return (isinstance(obj, dict) and obj.get("kind") in NVIDIA_KINDS
                and obj.get("apiVersion") in ("nvidia.com/v1beta1", "nvidia.com/v1alpha1"))

    if not dynamo(old) and not dynamo(new):
        report.objects = diff_objects([old] if old is not None else [], [new] if new is not None else [],
                                      "", context)
        return report

    from ._validate import in_namespace

    # both admitted in the namespace they are applied to (the manifest's own namespace wins)
    old_d = in_namespace(old, namespace) if dynamo(old) else None
    new_d = in_namespace(new, namespace) if dynamo(new) else None
    old_stored = new_stored = None
    if old_d is not None:
        diags, old_stored = _admit(old_d, settings, None)
        errors = [d for d in diags if d.severity == "error"]
        if old_stored is None or errors:
            report.old_errors = errors
            report.problems.append("the old object is not valid (it could not have been admitted): "
                                   + "; ".join(f"{d.field}: {d.message}" if d.path else d.message for d in errors[:5]))
            old_stored = None
    if new_d is not None:
        if old_d is not None and old_stored is not None and old_d.get("kind") == new_d.get("kind"):
            from ._validate import ValidateOptions, check_update

            diags, new_stored, _ = check_update(new_d, old_d, ValidateOptions(settings=settings, namespace=namespace))
        else:
            diags, new_stored = _admit(new_d, settings, None)
        report.admission = diags
        if new_stored is None:  # schema / CEL refused the update: render the create view for the diff
            _, new_stored = _admit(new_d, settings, None)
    if report.problems:
        return report

    old_objs: list[dict[str, Any]] = []
    new_objs: list[dict[str, Any]] = []
    if target is None and old_stored is not None and old_stored.get("kind") == "DynamoGraphDeployment":
        target = operator_target(old_stored)  # a running deployment keeps its pathway
    used: str | None = target
    for side, stored, raw, sink in (("old", old_stored, old_d, old_objs), ("new", new_stored, new_d, new_objs)):
        if raw is None:
            continue
        if stored is None:
            report.problems.append(f"the {side} object cannot be rendered: it is not admitted")
            continue
        try:
            objs, used_t = _render(stored, raw, target, namespace, operator_version, settings)
            sink.extend(objs)
            used = used or used_t
            if side == "new":
                used = used_t
        except Exception as exc:  # noqa: BLE001 - a render failure is reported, never raised
            report.problems.append(f"rendering the {side} object failed: {_describe(exc)}")
    report.target = used
    if report.problems:  # one side could not be rendered: a partial comparison would mislead
        return report
    report.objects = diff_objects(old_objs, new_objs, namespace, context)

    # Grove in-place update of PodCliqueSets that exist on both sides
    from .._grove._update import update_refusals

    old_pcs = {object_key(o, namespace): o for o in old_objs if o.get("kind") == "PodCliqueSet"}
    for n in new_objs:
        if n.get("kind") != "PodCliqueSet":
            continue
        o = old_pcs.get(object_key(n, namespace))
        if o is not None and o != n:
            label = f"PodCliqueSet/{meta_of(n).get('name', '')}"
            report.refusals += [Diagnostic(d.rule, d.path, d.message, d.severity, file=label)
                                for d in update_refusals(o, n)]
    if old_objs or new_objs:
        report.components = component_impacts(old_objs, new_objs, namespace, bool(report.refusals))
        if old_stored is not None and new_stored is not None:
            restart_request(report.components, old_stored, new_stored)
    return report


# --------------------------------------------------------------------------------------- command
def _pair_documents(old_docs: list[Any], new_docs: list[Any]) -> list[tuple[Any, Any]]:
    """Pair documents by (kind, namespace, name): a renamed object is a different object (the old one
    is deleted, the new one created)."""
    def key(doc: Any) -> tuple[str, str, str]:
        data = doc.data if isinstance(doc.data, dict) else {}
        kind = str(data.get("kind", ""))
        if kind in NVIDIA_KINDS:
            kind = "nvidia.com/" + kind  # v1alpha1 and v1beta1 are the same object
        else:
            kind = str(data.get("apiVersion", "")).split("/")[0] + "/" + kind
        meta = meta_of(data)
        return kind, str(meta.get("namespace") or ""), str(meta.get("name") or "")

    olds: dict[tuple[str, str, str], Any] = {}
    for d in old_docs:
        olds.setdefault(key(d), d)
    pairs: list[tuple[Any, Any]] = []
    used: set[tuple[str, str, str]] = set()
    for d in new_docs:
        k = key(d)
        if k in olds and k not in used:
            used.add(k)
            pairs.append((olds[k], d))
        else:
            pairs.append((None, d))
    for k, d in olds.items():
        if k not in used:
            pairs.append((d, None))
    return pairs


class DiffInputError(Exception):
    """``diff`` cannot compare its inputs (a usage or I/O error, or an input that does not load): ``lines``
    are what the command prints on standard error (exit 2). The command's own error, not the library's
    (``dynamo_schema.diff`` compares objects, not files)."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__(lines[0] if lines else "cannot compare")
        self.lines = lines


def diff_files(old_path: str, new_path: str, target: str | None = None, namespace: str = "default", *,
               settings: Any = None, operator_version: str | None = None, context: int = 3) -> list[DiffReport]:
    """The reports of ``diff OLD NEW``: the documents of the two files paired by identity, each pair
    compared (:func:`diff_documents`) and located in its file. Raises :class:`DiffInputError`."""
    from .._io._load import LoadError, load_path
    from .._report._diff import diag_line

    if target is not None:
        from .._render.targets import names_for  # the registry; imported here: it loads every target

        if target not in (targets := names_for("DynamoGraphDeployment")):
            raise DiffInputError([f"error: unknown target {target!r} (one of {', '.join(targets)})"])
    if old_path == "-" and new_path == "-":
        raise DiffInputError(["error: OLD and NEW cannot both be standard input"])
    docs: list[list[Any]] = []
    for path in (old_path, new_path):
        try:
            docs.append(load_path(path))
        except LoadError as exc:
            raise DiffInputError([diag_line(d) for d in exc.diagnostics] or [f"error: {path}: {exc}"]) from exc
        except FileNotFoundError as exc:
            raise DiffInputError([f"error: {path}: no such file or directory"]) from exc
        except PermissionError as exc:
            raise DiffInputError([f"error: {path}: permission denied"]) from exc
        except OSError as exc:
            raise DiffInputError([f"error: {path}: {exc}"]) from exc
    reports: list[DiffReport] = []
    for od, nd in _pair_documents(docs[0], docs[1]):
        old = od.data if od is not None and isinstance(od.data, dict) else None
        new = nd.data if nd is not None and isinstance(nd.data, dict) else None
        r = diff_documents(old, new, target=target, namespace=namespace, settings=settings,
                           operator_version=operator_version, context=context)
        r.old_file = od.file if od is not None else None
        r.new_file = nd.file if nd is not None else None
        if nd is not None:
            r.admission = [nd.place(d) for d in r.admission]
        if od is not None and r.old_errors:  # where in OLD the first reason is
            first = od.place(r.old_errors[0])
            if first.file is not None:
                r.problems = [f"{first.file}:{first.line}:{first.column}: {p}"
                              if p.startswith("the old object is not valid") else p for p in r.problems]
        reports.append(r)
    return reports
