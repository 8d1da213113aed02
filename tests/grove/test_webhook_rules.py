"""Grove's create-time PodCliqueSet admission: one accepted and one rejected case per rule.

Cases follow the tables of ai-dynamo/grove ``operator/internal/webhook/admission/pcs/validation/
{podcliqueset,podcliquedeps,topologyconstraints,handler}_test.go`` at fcc3b3bb. The expected
paths and messages are written out from the Go source (``podcliqueset.go``, ``util.go``,
``topologyconstraints.go``, ``mnnvl/webhook.go``, ``scheduler/kai/backend.go``), rendered the way
apimachinery v0.35 ``field.Error.ErrorBody`` prints them (numbers bare, strings quoted, other values
as JSON). Validator texts (names, labels, env names) are apimachinery's ``RegexError`` with its
``',  or '`` spacing, the same texts kube-apiserver prints (kubectl-validate's answers in
tests/k8s/test_objectmeta.py): Grove validates with apimachinery's validators.
"""

from __future__ import annotations

import copy
from typing import Any, Callable

import pytest

from dynamo_schema._grove._create import GroveSettings, grove_defaults, validate_pcs

Mut = Callable[[dict[str, Any]], None]

NAME_RULE = "combined resource name length {n} exceeds 45-character limit required for pod naming. Consider shortening: "


def clique(name: str, replicas: int | None = 1, **spec: Any) -> dict[str, Any]:
    s: dict[str, Any] = {"roleName": name, "podSpec": {"containers": [{"name": "main", "image": "busybox"}]}}
    if replicas is not None:
        s["replicas"] = replicas
    s.update(spec)
    return {"name": name, "spec": s}


def base() -> dict[str, Any]:
    return {
        "apiVersion": "grove.io/v1alpha1",
        "kind": "PodCliqueSet",
        "metadata": {"name": "inference", "namespace": "default"},
        "spec": {"replicas": 1, "template": {"cliques": [clique("prefill"), clique("decode")]}},
    }


def tmpl(p: dict[str, Any]) -> dict[str, Any]:
    return p["spec"]["template"]


def errors(p: dict[str, Any], settings: GroveSettings | None = None) -> list[tuple[str, str, str]]:
    return [(d.rule, d.field, d.message) for d in validate_pcs(p, settings) if d.severity == "error"]


def run(mut: Mut, settings: GroveSettings | None = None) -> list[tuple[str, str, str]]:
    p = base()
    mut(p)
    return errors(p, settings)


# --------------------------------------------------------------------------------------- mutations


def set_cliques(*cs: dict[str, Any]) -> Mut:
    def m(p: dict[str, Any]) -> None:
        tmpl(p)["cliques"] = list(cs)
    return m


def set_tmpl(**kv: Any) -> Mut:
    def m(p: dict[str, Any]) -> None:
        tmpl(p).update(kv)
    return m


def set_groups(*gs: dict[str, Any]) -> Mut:
    return set_tmpl(podCliqueScalingGroups=list(gs))


def both(*ms: Mut) -> Mut:
    def m(p: dict[str, Any]) -> None:
        for x in ms:
            x(p)
    return m


def set_name(name: str) -> Mut:
    def m(p: dict[str, Any]) -> None:
        p["metadata"]["name"] = name
    return m


def explicit(*cs: dict[str, Any]) -> Mut:
    return both(set_tmpl(cliqueStartupType="CliqueStartupTypeExplicit"), set_cliques(*cs))


def sched(*names: str) -> Mut:
    cs = []
    for i, n in enumerate(names):
        c = clique(f"c{i}")
        if n:
            c["spec"]["podSpec"]["schedulerName"] = n
        cs.append(c)
    return set_cliques(*cs)


def with_env(*names: str, key: str = "containers") -> Mut:
    def m(p: dict[str, Any]) -> None:
        ps = tmpl(p)["cliques"][0]["spec"]["podSpec"]
        ps.setdefault(key, [{"name": "init", "image": "busybox"}] if key == "initContainers" else [])
        ps[key][0]["env"] = [{"name": n, "value": "x"} for n in names]
    return m


def pod_field(**kv: Any) -> Mut:
    def m(p: dict[str, Any]) -> None:
        tmpl(p)["cliques"][0]["spec"]["podSpec"].update(kv)
    return m


def clique_ann(ann: dict[str, str]) -> Mut:
    def m(p: dict[str, Any]) -> None:
        tmpl(p)["cliques"][0]["annotations"] = ann
    return m


C0 = "spec.template.cliques[0]"
G0 = "spec.template.podCliqueScalingGroups[0]"
ONE_OF = "can only be one of map[CliqueStartupTypeAnyOrder:{} CliqueStartupTypeExplicit:{} CliqueStartupTypeInOrder:{}]"
RCT_OK = {"name": "gpu", "templateSpec": {"spec": {"devices": {"requests": [{"name": "g", "exactly": {"deviceClassName": "gpu"}}]}}}}

# (rule, accepted mutation, rejected mutation, expected errors of the rejected one)
CASES: list[tuple[str, Mut, Mut, list[tuple[str, str, str]]]] = [
    ("grove.replicas", lambda p: p["spec"].update(replicas=0), lambda p: p["spec"].update(replicas=-1),
     [("grove.replicas", "spec.replicas", "Invalid value: -1: must be greater than or equal to 0")]),
    ("grove.metadata", set_name("my.pcs"), set_name("Bad_Name"),
     [("grove.metadata", "metadata.name",
       'Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric '
       "characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex "
       r"used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')")]),
    ("grove.startup-type", set_tmpl(cliqueStartupType="CliqueStartupTypeInOrder"), set_tmpl(cliqueStartupType="Bogus"),
     [("grove.startup-type", "spec.template.cliqueStartupType", f'Invalid value: "Bogus": {ONE_OF}')]),
    ("grove.cliques-required", set_cliques(clique("only")), set_cliques(),
     # upstream then indexes the empty list of scheduler names (a Go panic); we report the default scheduler
     [("grove.cliques-required", "spec.template.cliques", "Required value: at least one PodClique must be defined")]),
    ("grove.clique-name-duplicate", set_cliques(clique("a"), clique("b")),
     set_cliques(clique("a"), {"name": "a", "spec": {**clique("a")["spec"], "roleName": "other"}}),
     [("grove.clique-name-duplicate", "spec.template.cliques.name", 'Duplicate value: ["a"]')]),
    ("grove.role-name-duplicate", set_cliques(clique("a"), clique("b")),
     set_cliques(clique("a"), {"name": "b", "spec": {**clique("b")["spec"], "roleName": "a"}}),
     [("grove.role-name-duplicate", "spec.template.cliques.roleName", 'Duplicate value: ["a"]')]),
    ("grove.clique-name", set_cliques(clique("prefill-worker")), set_cliques(clique("prefill_worker")),
     [("grove.clique-name", f"{C0}.name",
       'Invalid value: "prefill_worker": invalid PodCliqueTemplateSpec name, must be a valid DNS subdomain')]),
    ("grove.clique-replicas", set_cliques(clique("a", replicas=2)), set_cliques(clique("a", replicas=-1)),
     [("grove.clique-replicas", f"{C0}.spec.replicas", "Invalid value: -1: must be greater than 0"),
      ("grove.clique-min-available", f"{C0}.spec.minAvailable", "Invalid value: -1: must be greater than 0")]),
    ("grove.clique-min-available", set_cliques(clique("a", replicas=3, minAvailable=3)),
     set_cliques(clique("a", replicas=3, minAvailable=4)),
     [("grove.clique-min-available", f"{C0}.spec.minAvailable",
       "Invalid value: 4: minAvailable must not be greater than replicas")]),
    ("grove.starts-after",
     explicit(clique("a"), clique("b", startsAfter=["a"]), clique("c", startsAfter=["a", "b"])),
     explicit(clique("a", startsAfter=["a"]), clique("b", startsAfter=["", "zz", "zz"])),
     [("grove.starts-after", f"{C0}.spec.startsAfter", 'Invalid value: "a": clique dependency cannot refer to itself'),
      ("grove.starts-after", "spec.template.cliques[1].spec.startsAfter", "Required value: clique dependency must not be empty"),
      ("grove.starts-after", "spec.template.cliques[1].spec.startsAfter", 'Duplicate value: ["zz"]'),
      ("grove.starts-after", "spec.template.cliques.startsAfter",
       'Invalid value: ",zz,zz": unknown clique names found, all clique dependencies must be defined as cliques')]),
    ("grove.autoscaling",
     set_cliques(clique("a", replicas=2, minAvailable=1, autoScalingConfig={"minReplicas": 1, "maxReplicas": 3})),
     set_cliques(clique("a", replicas=4, minAvailable=2, autoScalingConfig={"minReplicas": 1, "maxReplicas": 3})),
     [("grove.autoscaling", f"{C0}.spec.autoScalingConfig.minReplicas",
       "Invalid value: 1: must be greater than or equal to podCliqueSpec.minAvailable"),
      ("grove.autoscaling", f"{C0}.spec.autoScalingConfig.maxReplicas",
       "Invalid value: 3: must be greater than or equal to replicas")]),
    ("grove.pod-spec-forbidden", pod_field(nodeSelector={"a": "b"}), pod_field(nodeName="node-1"),
     [("grove.pod-spec-forbidden", f"{C0}.spec.podSpec.spec.nodeName", 'Invalid value: "node-1": must not be set')]),
    ("grove.env-var", with_env("MY_VAR", "my.var-2"), with_env("1BAD", "A", "A", key="initContainers"),
     [("grove.env-var", f"{C0}.spec.podSpec.spec.initContainers[0].env[0].name",
       "Invalid value: \"1BAD\": a valid environment variable name must consist of alphabetic characters, digits, "
       "'_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', "
       "regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')"),
      ("grove.env-var", f"{C0}.spec.podSpec.spec.initContainers[0].env", 'Duplicate value: ["A"]')]),
    ("grove.clique-labels", clique_ann({"example.com/x": "y"}),
     lambda p: tmpl(p)["cliques"][0].update(labels={"ok": "bad value"}),
     [("grove.clique-labels", f"{C0}.labels",
       "Invalid value: \"bad value\": a valid label must be an empty string or consist of alphanumeric characters, "
       "'-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or "
       "'12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')")]),
    ("grove.scheduler-name", sched("", "default-scheduler"), sched("default-scheduler", "kai-scheduler"),
     [("grove.scheduler-name", "spec.template.cliques.spec.podSpec.schedulerName",
       'Invalid value: "default-scheduler, kai-scheduler": the schedulerName for all pods have to be the same')]),
    ("grove.pod-name-length",
     both(set_name("p" * 30), set_cliques(clique("c" * 15))),
     both(set_name("p" * 30), set_cliques(clique("c" * 16))),
     [("grove.pod-name-length", f"{C0}.name",
       f'Invalid value: "{"c" * 16}": ' + NAME_RULE.format(n=46) + f"PodCliqueSet '{'p' * 30}' or PodClique '{'c' * 16}'"),
      ("grove.pod-name-length", "metadata.name",
       f'Invalid value: "{"p" * 30}": ' + NAME_RULE.format(n=46) + f"PodCliqueSet '{'p' * 30}' or PodClique '{'c' * 16}'")]),
    ("grove.scaling-group-cliques", set_groups({"name": "workers", "cliqueNames": ["prefill", "decode"]}),
     set_groups({"name": "workers", "cliqueNames": ["nonexistent"]}),
     [("grove.scaling-group-cliques", f"{G0}.cliqueNames", 'Invalid value: "nonexistent": unidentified PodClique names found')]),
    ("grove.scaling-group-name", set_groups({"name": "workers.a", "cliqueNames": ["prefill"]}),
     set_groups({"name": "Workers", "cliqueNames": ["prefill"]}),
     [("grove.scaling-group-name", f"{G0}.name",
       'Invalid value: "Workers": invalid PodCliqueScalingGroupConfig name, must be a valid DNS subdomain')]),
    ("grove.scaling-group-replicas", set_groups({"name": "w", "cliqueNames": ["prefill"], "replicas": 2}),
     set_groups({"name": "w", "cliqueNames": ["prefill"], "replicas": 0, "minAvailable": 0}),
     [("grove.scaling-group-replicas", f"{G0}.replicas", "Invalid value: 0: must be greater than 0"),
      ("grove.scaling-group-min-available", f"{G0}.minAvailable", "Invalid value: 0: must be greater than 0")]),
    ("grove.scaling-group-min-available",
     set_groups({"name": "w", "cliqueNames": ["prefill"], "replicas": 3, "minAvailable": 3}),
     set_groups({"name": "w", "cliqueNames": ["prefill"], "replicas": 2, "minAvailable": 3}),
     [("grove.scaling-group-min-available", f"{G0}.minAvailable",
       "Invalid value: 3: minAvailable must not be greater than replicas")]),
    ("grove.scaling-group-scale-config",
     set_groups({"name": "w", "cliqueNames": ["prefill"], "replicas": 2, "minAvailable": 2,
                 "scaleConfig": {"maxReplicas": 4}}),
     set_groups({"name": "w", "cliqueNames": ["prefill"], "replicas": 3, "minAvailable": 2,
                 "scaleConfig": {"minReplicas": 1, "maxReplicas": 4}}),
     [("grove.scaling-group-scale-config", f"{G0}.scaleConfig.minReplicas",
       "Invalid value: 1: scaleConfig.minReplicas must be greater than or equal to minAvailable")]),
    ("grove.scaling-group-name-duplicate",
     set_groups({"name": "w1", "cliqueNames": ["prefill"]}, {"name": "w2", "cliqueNames": ["decode"]}),
     set_groups({"name": "w", "cliqueNames": ["prefill"]}, {"name": "w", "cliqueNames": ["decode"]}),
     [("grove.scaling-group-name-duplicate", "spec.template.podCliqueScalingGroups.name", 'Duplicate value: ["w"]')]),
    ("grove.scaling-group-clique-overlap",
     set_groups({"name": "w1", "cliqueNames": ["prefill", "decode"]}),
     set_groups({"name": "w1", "cliqueNames": ["prefill"]}, {"name": "w2", "cliqueNames": ["prefill", "decode"]}),
     [("grove.scaling-group-clique-overlap", "spec.template.podCliqueScalingGroups.cliqueNames",
       'Duplicate value: ["prefill"]')]),
    ("grove.scaling-group-autoscaling",
     both(set_cliques(clique("a", autoScalingConfig={"maxReplicas": 2}), clique("b")),
          set_groups({"name": "w", "cliqueNames": ["b"]})),
     both(set_cliques(clique("a", autoScalingConfig={"maxReplicas": 2}), clique("b")),
          set_groups({"name": "w", "cliqueNames": ["a"]})),
     [("grove.scaling-group-autoscaling", "spec.template.podCliqueScalingGroups",
       'Invalid value: "a": AutoScalingConfig is not allowed to be defined for PodClique that is part of scaling group')]),
    ("grove.termination-delay", set_tmpl(terminationDelay="1m"), set_tmpl(terminationDelay="0s"),
     # the value is a metav1.Duration, printed through json.Marshal → the Go duration string
     [("grove.termination-delay", "spec.template.terminationDelay",
       'Invalid value: "0s": terminationDelay must be greater than 0')]),
    ("grove.resource-claim-template", set_tmpl(resourceClaimTemplates=[RCT_OK]),
     set_tmpl(resourceClaimTemplates=[{"name": "", "templateSpec": {"spec": {}}}]),
     [("grove.resource-claim-template", "spec.template.resourceClaimTemplates[0].name",
       "Required value: template name is required"),
      ("grove.resource-claim-template", "spec.template.resourceClaimTemplates[0].templateSpec.spec.devices.requests",
       "Required value: at least one device request is required")]),
    ("grove.resource-sharing",
     set_tmpl(resourceClaimTemplates=[RCT_OK],
              resourceSharing=[{"name": "gpu", "scope": "PerReplica", "filter": {"childCliqueNames": ["prefill"]}}]),
     set_tmpl(resourceClaimTemplates=[RCT_OK],
              resourceSharing=[{"name": "gpu", "namespace": "x", "scope": "AllReplicas"},
                               {"name": "gpu", "scope": "AllReplicas", "filter": {"childScalingGroupNames": ["nope"]}},
                               {"name": "ext", "scope": "AllReplicas", "filter": {}}]),
     [("grove.resource-sharing", "spec.template.resourceSharing[0].namespace",
       'Invalid value: "x": namespace must be empty when name matches an internal resourceClaimTemplate'),
      ("grove.resource-sharing", "spec.template.resourceSharing[1].name", 'Duplicate value: "gpu"'),
      ("grove.resource-sharing", "spec.template.resourceSharing[1].filter.childScalingGroupNames[0]",
       'Not found: "nope"'),
      ("grove.resource-sharing", "spec.template.resourceSharing[2].filter",
       "Required value: filter must specify at least one childCliqueNames or childScalingGroupNames entry")]),
    ("grove.mnnvl", clique_ann({"grove.io/mnnvl-group": "none"}), clique_ann({"grove.io/mnnvl-group": "Group_1"}),
     [("grove.mnnvl", f"{C0}.annotations[grove.io/mnnvl-group]",
       'Invalid value: "Group_1": mnnvl-group value "Group_1" is not a valid DNS-1123 label: a lowercase RFC 1123 '
       "label must consist of lower case alphanumeric characters or '-', and must start and end with an "
       "alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
       "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')"),
      ("grove.mnnvl", f"{C0}.annotations[grove.io/mnnvl-group]",
       'Invalid value: "Group_1": MNNVL is not enabled in the operator configuration. Either enable MNNVL globally '
       "or remove the grove.io/mnnvl-group annotation")]),
    ("grove.topology-disabled", lambda p: None,
     set_tmpl(topologyConstraint={"topologyName": "t", "pack": {"required": "rack", "preferred": "host"}}),
     [("grove.topology-disabled", "spec.template.topologyConstraint",
       'Invalid value: ["rack","host"]: topology constraints are not allowed when Topology Aware Scheduling is disabled')]),
]


@pytest.mark.parametrize("rule,ok,bad,expected", CASES, ids=[c[0] for c in CASES])
def test_rule_accepts(rule: str, ok: Mut, bad: Mut, expected: list[tuple[str, str, str]]) -> None:
    assert run(ok) == []


@pytest.mark.parametrize("rule,ok,bad,expected", CASES, ids=[c[0] for c in CASES])
def test_rule_rejects(rule: str, ok: Mut, bad: Mut, expected: list[tuple[str, str, str]]) -> None:
    assert run(bad) == expected


def test_every_rule_has_a_case() -> None:
    import re
    from pathlib import Path

    grove = Path(__file__).resolve().parents[2] / "dynamo_schema" / "_grove"
    src = "".join((grove / name).read_text() for name in ("_create.py", "_topology.py", "_mnnvl.py"))
    # the update rules of the two modules shared with the update webhook: tests/pipeline/test_diff.py
    rules = set(re.findall(r'"(grove\.[a-z-]+)"', src)) - {"grove.topology-immutable", "grove.mnnvl-immutable"}
    covered = {c[0] for c in CASES} | {r for c in CASES for r, _, _ in c[3]} | {
        "grove.starts-after-cycle", "grove.scheduler-enabled", "grove.backend", "grove.topology-name",
        "grove.topology-binding", "grove.topology-domain", "grove.topology-hierarchy", "grove.clique-annotations",
        "grove.topology-preferred-redundant", "grove.restart-policy-ignored"}
    assert rules <= covered, rules - covered


# --------------------------------------------------------------------------------------- special cases


def test_startup_dependencies_ignored_unless_explicit() -> None:
    """``startsAfter`` is only checked for CliqueStartupTypeExplicit (podcliqueset.go)."""
    assert run(set_cliques(clique("a", startsAfter=["a", "ghost"]))) == []


@pytest.mark.parametrize("cliques,cycles", [
    ([clique("clique1", startsAfter=["clique2"]), clique("clique2", startsAfter=["clique1"])],
     [[["clique2", "clique1"]], [["clique1", "clique2"]]]),
    ([clique("clique1", startsAfter=["clique3"]), clique("clique2", startsAfter=["clique1"]),
      clique("clique3", startsAfter=["clique2"])],
     None),
])
def test_cycles(cliques: list[dict[str, Any]], cycles: list[list[list[str]]] | None) -> None:
    """podcliqueset_test.go ``TestValidateCliqueDependencies``: two- and three-way cycles. Go walks a map,
    so the member order of a cycle depends on where the walk starts; any rotation of the cycle in
    reverse-dependency order is what Tarjan pops."""
    errs = run(explicit(*cliques))
    assert len(errs) == 1
    rule, path, msg = errs[0]
    assert (rule, path) == ("grove.starts-after-cycle", "spec.template.cliques")
    assert msg.startswith("Invalid value: [[") and msg.endswith("]]: clique must not have circular dependencies")
    if cycles is not None:
        import json
        value = json.loads(msg[len("Invalid value: "):-len(": clique must not have circular dependencies")])
        assert value in cycles
    else:
        assert all(f'"{c["name"]}"' in msg for c in cliques)


def test_cycle_with_self_loop_only_is_not_a_cycle() -> None:
    errs = run(explicit(clique("a", startsAfter=["a"])))
    assert [r for r, _, _ in errs] == ["grove.starts-after"]


@pytest.mark.parametrize("names,enabled,default,expected", [
    # podcliqueset_test.go TestValidateSchedulerNames
    (["", ""], ("default-scheduler", "kai-scheduler"), "kai-scheduler", []),
    (["lpx-scheduler"], ("default-scheduler", "lpx-scheduler"), "default-scheduler", []),
    (["kai-scheduler"], ("default-scheduler",), "default-scheduler", ["grove.scheduler-enabled", "grove.backend"]),
    (["volcano"], ("default-scheduler", "kai-scheduler"), "default-scheduler", ["grove.scheduler-enabled", "grove.backend"]),
    (["", "kai-scheduler"], ("default-scheduler", "kai-scheduler"), "default-scheduler", ["grove.scheduler-name"]),
])
def test_scheduler_names(names: list[str], enabled: tuple[str, ...], default: str, expected: list[str]) -> None:
    p = base()
    sched(*names)(p)
    for c in tmpl(p)["cliques"]:
        c["labels"] = {"kai.scheduler/queue": "q"}
    got = errors(p, GroveSettings(enabled_schedulers=enabled, default_scheduler=default))
    assert [r for r, _, _ in got] == expected


def test_scheduler_not_enabled_messages() -> None:
    got = run(sched("volcano", "volcano"))
    assert got[0] == ("grove.scheduler-enabled", "spec.template.cliques.spec.podSpec.schedulerName",
                      'Invalid value: "volcano": schedulerName must be an enabled scheduler backend; this scheduler is '
                      "not enabled in OperatorConfiguration")
    rule, path, msg = got[1]
    assert (rule, path) == ("grove.backend", "spec")
    assert msg.startswith('Invalid value: {"') and msg.endswith(
        ': schedulerName "volcano" is not enabled in OperatorConfiguration')


def test_kai_queue() -> None:
    """scheduler/kai/backend.go ``resolveQueueNameForPodCliqueSet``, wrapped as ``field.Invalid(spec, …)``."""
    def detail(p: dict[str, Any]) -> list[str]:
        return [m.split("}: ", 1)[-1] for r, _, m in errors(p) if r == "grove.backend"]

    p = base()
    sched("kai-scheduler", "kai-scheduler")(p)
    assert detail(p) == ["no KAI queue is configured on PodCliqueSet default/inference or its PodClique templates"]
    tmpl(p)["cliques"][0]["labels"] = {"kai.scheduler/queue": "a"}
    assert detail(p) == []
    tmpl(p)["cliques"][1]["annotations"] = {"kai.scheduler/queue": "b"}
    assert detail(p) == ["conflicting KAI queues on PodCliqueSet default/inference PodClique templates: [a b]"]
    p["metadata"]["labels"] = {"kai.scheduler/queue": "a"}
    assert detail(p) == ['KAI queue on PodCliqueSet default/inference is "a" but PodClique template "c1" resolves to "b"']
    tmpl(p)["cliques"][1]["annotations"] = {}
    assert detail(p) == []


def test_pcsg_name_budget() -> None:
    """podcliqueset_test.go "Scaling group with long names": three errors, on the PCSG name, on
    ``cliqueNames[i].name`` and on ``metadata.name``; 45 characters exactly is accepted."""
    pcs, sg, pclq = "verylongpodcliquesetname", "verylongscalinggroup", "verylongpodcliquename"  # 24 + 20 + 21 = 65
    bad = both(set_name(pcs), set_cliques(clique(pclq)), set_groups({"name": sg, "cliqueNames": [pclq]}))
    msg = NAME_RULE.format(n=65) + f"PodCliqueSet '{pcs}', PodCliqueScalingGroup '{sg}', or PodClique '{pclq}'"
    assert run(bad) == [
        ("grove.pod-name-length", f"{G0}.cliqueNames[0].name", f'Invalid value: "{pclq}": {msg}'),
        ("grove.pod-name-length", f"{G0}.name", f'Invalid value: "{pclq}": {msg}'),
        ("grove.pod-name-length", "metadata.name", f'Invalid value: "{pcs}": {msg}'),
    ]
    ok = both(set_name("p" * 20), set_cliques(clique("c" * 15)), set_groups({"name": "g" * 10, "cliqueNames": ["c" * 15]}))
    assert run(ok) == []
    # the standalone rule is not applied to a PCSG member (45 < 20 + 30 alone would fail otherwise)
    ok2 = both(set_name("p" * 20), set_cliques(clique("c" * 25)), set_groups({"name": "g", "cliqueNames": ["c" * 25]}))
    assert run(ok2) == [("grove.pod-name-length", f"{G0}.cliqueNames[0].name",
                         f'Invalid value: "{"c" * 25}": ' + NAME_RULE.format(n=46)
                         + f"PodCliqueSet '{'p' * 20}', PodCliqueScalingGroup 'g', or PodClique '{'c' * 25}'"),
                        ("grove.pod-name-length", f"{G0}.name", f'Invalid value: "{"c" * 25}": ' + NAME_RULE.format(n=46)
                         + f"PodCliqueSet '{'p' * 20}', PodCliqueScalingGroup 'g', or PodClique '{'c' * 25}'"),
                        ("grove.pod-name-length", "metadata.name", f'Invalid value: "{"p" * 20}": ' + NAME_RULE.format(n=46)
                         + f"PodCliqueSet '{'p' * 20}', PodCliqueScalingGroup 'g', or PodClique '{'c' * 25}'")]


def test_empty_clique_name_skips_name_constraints() -> None:
    """grove.md §1 (a): an empty clique name gets only "field cannot be empty"."""
    c = clique("x")
    c["name"] = ""
    assert run(both(set_name("p" * 45), set_cliques(c))) == [
        ("grove.clique-name", f"{C0}.name", "Required value: field cannot be empty")]


def test_zero_replicas_without_min_available() -> None:
    """The defaulting webhook copies the pre-defaulting 0 into ``minAvailable`` (grove.md §10.2)."""
    assert run(set_cliques(clique("a", replicas=None))) == [
        ("grove.clique-min-available", f"{C0}.spec.minAvailable", "Invalid value: 0: must be greater than 0")]


def test_defaults() -> None:
    p = base()
    tmpl(p)["cliques"][0]["spec"]["replicas"] = 0
    tmpl(p)["podCliqueScalingGroups"] = [{"name": "g", "cliqueNames": ["decode"], "scaleConfig": {"maxReplicas": 3}}]
    before = copy.deepcopy(p)
    d = grove_defaults(p)
    assert p == before
    t = d["spec"]["template"]
    assert t["cliqueStartupType"] == "CliqueStartupTypeAnyOrder"
    assert t["terminationDelay"] == "4h0m0s"
    assert t["headlessServiceConfig"] == {"publishNotReadyAddresses": True}
    assert t["cliques"][0]["spec"]["replicas"] == 1 and t["cliques"][0]["spec"]["minAvailable"] == 0
    assert t["cliques"][1]["spec"]["minAvailable"] == 1
    assert t["cliques"][0]["spec"]["podSpec"]["restartPolicy"] == "Always"
    assert t["cliques"][0]["spec"]["podSpec"]["terminationGracePeriodSeconds"] == 30
    assert t["podCliqueScalingGroups"][0] == {"name": "g", "cliqueNames": ["decode"], "replicas": 1, "minAvailable": 1,
                                              "scaleConfig": {"maxReplicas": 3, "minReplicas": 1}}


def test_no_defaulting_reports_required_fields() -> None:
    """Without the defaulting webhook the validator's "should never happen" branches fire."""
    p = base()
    del tmpl(p)["cliques"][1]
    got = [(d.rule, d.field, d.message) for d in validate_pcs(p, default=False)]
    assert got == [
        ("grove.startup-type", "spec.template.cliqueStartupType", "Required value: field is required"),
        ("grove.clique-min-available", f"{C0}.spec.minAvailable", "Required value: field is required"),
        ("grove.termination-delay", "spec.template.terminationDelay", "Required value: terminationDelay is required"),
    ]


def test_restart_policy_warning() -> None:
    p = base()
    pod_field(restartPolicy="Never")(p)
    ds = validate_pcs(p)
    assert [(d.rule, d.severity, d.field, d.message) for d in ds] == [
        ("grove.restart-policy-ignored", "warning", f"{C0}.spec.podSpec.restartPolicy",
         "restartPolicy will be ignored, it will be set to Always")]


def test_topology_disabled_on_every_level() -> None:
    tc = {"topologyName": "t", "pack": {"required": "rack"}}
    p = base()
    tmpl(p)["cliques"][1]["topologyConstraint"] = tc
    tmpl(p)["podCliqueScalingGroups"] = [{"name": "g", "cliqueNames": ["decode"], "topologyConstraint": tc}]
    assert errors(p) == [
        ("grove.topology-disabled", "spec.template.cliques[1].topologyConstraint",
         'Invalid value: ["rack"]: topology constraints are not allowed when Topology Aware Scheduling is disabled'),
        ("grove.topology-disabled", f"{G0}.topologyConstraint",
         'Invalid value: ["rack"]: topology constraints are not allowed when Topology Aware Scheduling is disabled'),
    ]


def test_object_meta() -> None:
    """Grove's PodCliqueSet webhook checks the object's metadata with apimachinery's ``ValidateObjectMeta``:
    namespaced, the name a DNS subdomain, errors under ``metadata``."""
    p = base()
    del p["metadata"]["name"]
    p["metadata"]["generateName"] = "inference-"
    assert errors(p) == []
    del p["metadata"]["generateName"]
    assert errors(p) == [("grove.metadata", "metadata.name", "Required value: name or generateName is required")]
    p = base()
    p["metadata"]["labels"] = {"a/b/c": "x"}
    assert errors(p) == [("grove.metadata", "metadata.labels",
                          "Invalid value: \"a/b/c\": a qualified name must consist of alphanumeric characters, '-', '_' "
                          "or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or "
                          "'123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an "
                          "optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')")]
    p = base()
    p["metadata"]["annotations"] = {"Example.com/Key": "x"}
    assert errors(p) == []


def test_termination_delay_negative() -> None:
    assert run(set_tmpl(terminationDelay="-90s")) == [
        ("grove.termination-delay", "spec.template.terminationDelay",
         'Invalid value: "-1m30s": terminationDelay must be greater than 0')]


@pytest.mark.parametrize(("delay", "printed"), [("-1500us", "-1.5ms"), ("-2ms", "-2ms"), ("-1.5us", "-1.5µs")])
def test_termination_delay_negative_below_a_second(delay: str, printed: str) -> None:
    """Go ``time.Duration.String`` below one second: the largest unit of ms/µs, with the fraction trimmed."""
    assert run(set_tmpl(terminationDelay=delay)) == [
        ("grove.termination-delay", "spec.template.terminationDelay",
         f'Invalid value: "{printed}": terminationDelay must be greater than 0')]


def test_autoscaling_max_replicas_below_min_replicas() -> None:
    """Grove ``validateScaleConfig``: ``maxReplicas < minReplicas`` is refused at ``maxReplicas`` (its test table's
    case: minReplicas 5, maxReplicas 3, minAvailable 1)."""
    bad = set_cliques(clique("a", replicas=1, minAvailable=1, autoScalingConfig={"minReplicas": 5, "maxReplicas": 3}))
    assert run(bad) == [("grove.autoscaling", f"{C0}.spec.autoScalingConfig.maxReplicas",
                         "Invalid value: 3: must be greater than or equal to podCliqueSpec.minReplicas")]
    ok = set_cliques(clique("a", replicas=1, minAvailable=1, autoScalingConfig={"minReplicas": 5, "maxReplicas": 5}))
    assert run(ok) == []


VOLCANO_Q = "scheduling.grove.io/volcano-queue"


def _volcano_detail(p: dict[str, Any]) -> list[str]:
    got = errors(p, GroveSettings(enabled_schedulers=("default-scheduler", "volcano")))
    return [m.split("}: ", 1)[-1] for r, _, m in got if r == "grove.backend"]


def test_volcano_clique_queue_annotations() -> None:
    """scheduler/volcano/queue.go ``validateQueueAnnotations`` at fcc3b3bb: each clique's queue annotation is
    a DNS-1123 subdomain (``spec.template.cliques[i].annotations[key]: <msgs joined by "; ">``), all cliques
    resolve to one queue; several errors are an apimachinery ``NewAggregate`` (one: its text; more:
    ``[a, b]``)."""  # mutants 4c8162053aee, ac1bf49892de, 2070592ce09b
    from dynamo_schema._k8s._names import dns1123_subdomain_errors

    bad = "; ".join(dns1123_subdomain_errors("Bad_Queue"))
    p = base()
    sched("volcano", "volcano")(p)
    assert _volcano_detail(p) == []
    tmpl(p)["cliques"][1]["annotations"] = {VOLCANO_Q: "Bad_Queue"}
    same = ("spec.template.cliques[1].annotations[scheduling.grove.io/volcano-queue]: all PodCliques in a "
            "PodCliqueSet using volcano scheduler must resolve to the same queue")
    invalid = f"spec.template.cliques[1].annotations[scheduling.grove.io/volcano-queue]: {bad}"
    assert _volcano_detail(p) == [f"[{invalid}, {same}]"]
    tmpl(p)["cliques"][1]["annotations"] = {VOLCANO_Q: "gpu"}
    assert _volcano_detail(p) == [same]  # "default" (no annotation) then "gpu"


@pytest.mark.parametrize(("backend", "want"), [
    ("volcano", "volcano scheduler backend does not support topologyConstraint on PodCliqueSet"),
    ("lpx-scheduler", "lpx-scheduler does not support Grove topology constraints; placement topology must be "
                      "expressed through the LPX workload contract"),
])
def test_pcs_level_topology_constraint_per_backend(backend: str, want: str) -> None:
    """scheduler/volcano/backend.go ``validateTopologyConstraints`` and scheduler/lpx/backend.go: a
    PodCliqueSet-level topologyConstraint is refused with each backend's own message."""
    # mutants a61cb2a6a26f, 955f2cb8579d
    p = base()
    sched(backend, backend)(p)
    tmpl(p)["topologyConstraint"] = {"packDomain": "zone"}
    got = errors(p, GroveSettings(enabled_schedulers=("default-scheduler", backend)))
    assert [m.split("}: ", 1)[-1] for r, _, m in got if r == "grove.backend"] == [want]


@pytest.mark.parametrize(("delay", "printed"), [
    ("-1m", "-1m0s"), ("-1h", "-1h0m0s"), ("-1.5s", "-1.5s"), ("-2s", "-2s"), ("-1us", "-1µs"), ("-1000ns", "-1µs"),
    ("-999ns", "-999ns"),
])
def test_termination_delay_negative_printed_as_go_does(delay: str, printed: str) -> None:
    """Go ``time.ParseDuration`` (m = 60 s, h = 3600 s) and ``time.Duration.String`` (below 1 s the largest
    of ns/µs/ms; from 1 s on h, m and fractional s, ``1m0s``): podcliqueset.go prints the parsed delay."""
    # mutants 7eff188c9b36, d63da20816ab, 3143b07db420, 21cde82d8996
    assert run(set_tmpl(terminationDelay=delay)) == [
        ("grove.termination-delay", "spec.template.terminationDelay",
         f'Invalid value: "{printed}": terminationDelay must be greater than 0')]


def test_self_dependency_is_found_by_value_not_identity() -> None:
    """podcliqueset.go: a clique whose startsAfter names itself is refused, whatever string object holds the
    name (names built at run time, as a loader produces them)."""  # mutant d0c5028f831c
    name, dep = "".join(["pre", "fill"]), "".join(["pref", "ill"])
    assert name == dep and name is not dep
    got = run(explicit(clique(name, startsAfter=[dep]), clique("decode")))
    assert ("grove.starts-after", f"{C0}.spec.startsAfter",
            'Invalid value: "prefill": clique dependency cannot refer to itself') in got


def _rendered_pcs() -> list[dict[str, Any]]:
    """Grove's samples and the PodCliqueSets our render makes of the v1beta1 corpus (grove target)."""
    from pathlib import Path

    import yaml

    from dynamo_schema._pipeline._render_object import render_object

    shared = (Path(__file__).resolve().parents[2] / ".." / "shared" / "reference").resolve()
    out: list[dict[str, Any]] = []
    for path in sorted((shared / "grove" / "samples").glob("*.yaml")):
        out += [d for d in yaml.safe_load_all(path.read_text(encoding="utf-8"))
                if isinstance(d, dict) and d.get("kind") == "PodCliqueSet"]
    for path in sorted((shared / "dynamo" / "corpus" / "v1beta1").glob("*.yaml")):
        for doc in yaml.safe_load_all(path.read_text(encoding="utf-8")):
            if not isinstance(doc, dict) or doc.get("kind") != "DynamoGraphDeployment":
                continue
            try:
                objs = render_object(doc, target="grove", validate_output=False)
            except Exception:  # refused inputs render nothing
                continue
            out += [o for o in objs if o.get("kind") == "PodCliqueSet"]
    return out


def _variants() -> list[dict[str, Any]]:
    p = base()
    tmpl(p)["cliques"][0]["spec"]["replicas"] = 0
    tmpl(p)["cliques"][1]["spec"]["autoScalingConfig"] = {"maxReplicas": 4}
    tmpl(p)["podCliqueScalingGroups"] = [{"name": "g", "cliqueNames": ["decode"], "scaleConfig": {"maxReplicas": 3}},
                                         "not-a-mapping"]
    q = base()
    del q["metadata"]
    tmpl(q)["cliques"].append("not-a-mapping")
    tmpl(q)["cliques"][0]["spec"]["podSpec"] = None
    return [p, q, {"kind": "PodCliqueSet"}, {"metadata": None, "spec": {"template": None}}]


@pytest.mark.parametrize("pcs", _variants() + _rendered_pcs())
def test_shared_defaults_equal_the_copied_ones(pcs: dict[str, Any]) -> None:
    """``grove_defaults(..., shared=True)`` (what the validating webhook reads, copied only on the way to a
    default) equals the full copy's result and leaves its input as it was."""
    before = copy.deepcopy(pcs)
    full = grove_defaults(pcs)
    shared = grove_defaults(pcs, shared=True)
    assert shared == full
    assert pcs == before


# time.ParseDuration and Duration.String of Go 1.26 for these strings, run outside the project (D59): integer
# nanoseconds with overflow checks (Go refuses past int64), a fraction added as Go's float64 product
@pytest.mark.parametrize(("text", "ns", "shown"), [
    ("0.3s", 300_000_000, "300ms"),
    ("2562047h47m16.854775808s", None, None),
    ("9223372036854775807ns", 9223372036854775807, "2562047h47m16.854775807s"),
    ("-9223372036854775808ns", -9223372036854775808, "-2562047h47m16.854775808s"),
    ("9223372036854775808ns", None, None),
    ("1.0000000001s", 1_000_000_000, "1s"),
    ("+5.ms9223372036.5s", 9223372036505000000, "2562047h47m16.505s"),
    ("1.5h", 5_400_000_000_000, "1h30m0s"),
    ("5x", None, None),
    (".s", None, None),
])
def test_go_durations(text: str, ns: int | None, shown: str | None) -> None:
    from dynamo_schema._grove._create import _go_duration_string, parse_go_duration

    assert parse_go_duration(text) == ns
    if ns is not None:
        assert _go_duration_string(ns) == shown
