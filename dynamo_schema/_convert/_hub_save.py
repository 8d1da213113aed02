"""Upstream's typed hub save (beta -> alpha): ``saveSharedHubOnlySpec`` / ``sparseSharedHubOnlyPodTemplate``."""

from __future__ import annotations

from ._component_to_hub import build_pod_template
from ._fields import MAIN, containers_of, find_ctr, find_mount, only_name
from ._json import JSONArray, JSONObject, dc, deep_empty, sem_eq

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any


def _sparse_hub_mounts(src: JSONArray, projected: JSONArray) -> JSONArray:
    """``sparseSharedHubOnlyVolumeMounts``."""
    out = []
    for m in src:
        pm = find_mount(projected, m)
        if pm is None or not sem_eq(m, pm):
            out.append(dc(m))
        else:
            out.append({"name": m.get("name", ""), "mountPath": m.get("mountPath", "")})
    return out


def _generated_main_key_needs_save(src: JSONObject, proj: JSONObject | None) -> bool:
    """``sharedGeneratedMainContainerKeyNeedsSave``."""
    if src.get("name") != MAIN:
        return False
    if proj is None or only_name(src):
        return only_name(src) if proj is None else True
    src_mounts = [m for m in src.get("volumeMounts") or [] if isinstance(m, dict)]
    return any(find_mount(src_mounts, pm) is None for pm in proj.get("volumeMounts") or [] if isinstance(pm, dict))


def _sparse_hub_pod_template(src: JSONObject, projected: JSONObject | None, fs_name: str) -> JSONObject | None:
    """``sparseSharedHubOnlyPodTemplate``."""
    meta = {k: dc(v) for k, v in (src.get("metadata") or {}).items() if k not in ("labels", "annotations")}
    src_ctrs, proj_ctrs = containers_of(src), containers_of(projected)
    src_names = [c.get("name") for c in src_ctrs]
    needs_meta = not deep_empty(meta)
    needs_gen_main = projected is not None and MAIN not in src_names and find_ctr(proj_ctrs, MAIN) is not None
    needs_empty = projected is None and deep_empty(src)
    needs_order = projected is not None and src_names != _projected_names(src_names, proj_ctrs)
    if not (
        needs_meta
        or needs_gen_main
        or needs_empty
        or needs_order
        or _containers_need_save(src_ctrs, proj_ctrs, projected is None, fs_name)
    ):
        return None
    saved = _sparse_containers(src_ctrs, proj_ctrs, needs_order, fs_name)
    if not needs_meta and not saved and not needs_gen_main and not needs_empty:
        return None
    out: JSONObject = {}
    if needs_meta:
        out["metadata"] = meta
    out["spec"] = {"containers": saved} if saved else {}
    return out


def _projected_names(src_names: list[Any], proj_ctrs: list[JSONObject]) -> list[Any]:
    """The projection's container names, without a generated ``main`` the hub template lacks."""
    proj_names = [c.get("name") for c in proj_ctrs]
    if MAIN not in src_names:
        proj_names = [n for n in proj_names if n != MAIN]
    return proj_names


def _containers_need_save(src_ctrs: list[JSONObject], proj_ctrs: list[JSONObject], no_projection: bool, fs_name: str) -> bool:
    """The frontend sidecar is there, or the containers differ from their projection."""
    if fs_name and fs_name in [c.get("name") for c in src_ctrs]:
        return True
    return bool(src_ctrs) if no_projection else not sem_eq(src_ctrs, proj_ctrs)


def _sparse_containers(src_ctrs: list[JSONObject], proj_ctrs: list[JSONObject], needs_order: bool, fs_name: str) -> list[JSONObject]:
    """The containers of the sparse template: every one when the order must be kept, the frontend
    sidecar, a generated main key, and each one with hub-only content."""
    saved: list[JSONObject] = []
    for sc in src_ctrs:
        name = sc.get("name")
        pc = find_ctr(proj_ctrs, name)
        kept = _sparse_container(sc, pc)
        if needs_order or name == fs_name or _generated_main_key_needs_save(sc, pc) or not only_name(kept):
            saved.append(kept)
    return saved


def _sparse_container(sc: JSONObject, pc: JSONObject | None) -> JSONObject:
    """What of the hub container ``sc`` its v1alpha1 projection ``pc`` does not say."""
    name = sc.get("name")
    if pc is None:
        return {"name": name} if only_name(sc) else dc(sc)
    kept: JSONObject = {"name": name}
    if name != MAIN:
        if not sem_eq(sc, pc):
            kept = dc(sc)
            for k in ("image", "args", "env"):
                kept.pop(k, None)
            if sem_eq(sc.get("envFrom"), pc.get("envFrom")):
                kept.pop("envFrom", None)
    elif sc.get("volumeMounts"):
        kept["volumeMounts"] = _sparse_hub_mounts(sc["volumeMounts"], pc.get("volumeMounts") or [])
    return kept


def hub_save(comp: JSONObject, svc: JSONObject) -> JSONObject:
    """``saveSharedHubOnlySpec`` (without the component name)."""
    save: JSONObject = {}
    if comp.get("frontendSidecar") is not None and svc.get("frontendSidecar") is None:
        save["frontendSidecar"] = comp["frontendSidecar"]
    pt = comp.get("podTemplate")
    if isinstance(pt, dict):
        projected = build_pod_template(svc)
        sparse = _sparse_hub_pod_template(pt, projected, save.get("frontendSidecar") or "")
        if sparse is not None:
            save["podTemplate"] = sparse
    exp = comp.get("experimental")
    if isinstance(exp, dict):
        if all(exp.get(k) is None for k in ("gpuMemoryService", "failover", "checkpoint")):
            save["experimental"] = dc(exp)
        elif exp.get("grove") is not None:
            save["experimental"] = {"grove": dc(exp["grove"])}
    return save
