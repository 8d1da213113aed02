"""Help for rule ids, by family (the part before the first dot): what SARIF's ``rules`` carry.

The catalogue is docs/rules.md; ``helpUri`` points at the family's section of its published copy.
"""

from __future__ import annotations

from dataclasses import dataclass


def rules_doc() -> str:
    """The catalogue's absolute address (``_core._consts.rules_url``: ``$DYNAMO_SCHEMA_RULES_URL``, else
    ``rules.md`` under ``$DYNAMO_SCHEMA_DOCS_URL`` or the project's documentation URL). SARIF 2.1.0 requires
    absolute URIs in ``informationUri`` and ``helpUri``; ValueError when the variable is not one."""
    from .._core._consts import rules_url

    return rules_url()


_FAMILIES: dict[str, tuple[str, str]] = {
    "load": ("The file could not be read as YAML/JSON the way kubectl reads it.",
             "Reading problems: syntax errors, duplicate keys, unsafe tags, bad encodings, documents that are "
             "not mappings, missing apiVersion or kind. Fix the file so that it parses strictly."),
    "schema": ("The object does not match the CRD's OpenAPI schema.",
               "Structural-schema checks as the API server runs them: types, enums, patterns, bounds, "
               "required fields, unknown fields (strict), list uniqueness, unknown kinds or removed API versions."),
    "k8s-schema": ("A built-in Kubernetes object does not match its schema.",
                   "Checked against the Kubernetes JSON Schemas bundled by kubernetes-validate for the "
                   "--kubernetes-version release."),
    "extra-schema": ("The object does not match the schema found through --schema-location.",
                     "JSON Schema validation against a schema supplied with --schema-location."),
    "cel": ("A CEL rule (x-kubernetes-validations) of the CRD failed or was not checked.",
            "The CRD's CEL validation rules, evaluated on the defaulted object as the API server evaluates them."),
    "webhook": ("The operator's mutating webhook could not decode the object into its Go type.",
                "The mutating webhook decodes the body into the operator's Go type before the schema is "
                "checked: a value that type cannot hold (a quantity Go cannot parse, a string or 1.5 for an "
                "integer, a list for a map) is refused with the Go decoder's message."),
    "dgd": ("A DynamoGraphDeployment admission webhook rule failed.",
            "Rules of the Dynamo operator's validating webhook for DynamoGraphDeployment."),
    "dcd": ("A DynamoComponentDeployment admission webhook rule failed.",
            "Rules of the Dynamo operator's validating webhook for DynamoComponentDeployment."),
    "dgdr": ("A DynamoGraphDeploymentRequest admission rule failed.",
             "Rules of the Dynamo operator's webhook and controller for DynamoGraphDeploymentRequest."),
    "multinode": ("A multinode component setting is inconsistent.",
                  "Multinode (leader/worker) rules of the Dynamo operator."),
    "update": ("The object is not a valid update of the old object (--old).",
               "Transition rules: immutable fields, CEL oldSelf rules, kind changes."),
    "metadata": ("The object's metadata is invalid.",
                 "ObjectMeta checks the API server applies: name, namespace, labels, annotations."),
    "grove": ("A Grove PodCliqueSet rule failed.", "Rules of Grove's PodCliqueSet validating webhook."),
    "infercrane": ("An InferCrane DeploymentSpec rule failed.", "Rules of InferCrane's DeploymentSpec loader."),
    "convert": ("The object could not be converted between API versions.",
                "The conversion webhook (v1alpha1 <-> v1beta1) refused the object."),
    "policy": ("The kind was skipped or rejected by validate's kind controls.",
               "--skip, --reject, --ignore-missing-schemas and the policy for kinds without a schema."),
    "render": ("The operator would fail to create the objects, or render refuses the object.",
               "Reconcile-time failures of the operator's rendering, and layouts this renderer does not produce."),
    "waiver": ("A waiver comment matches no diagnostic.",
               "A '# dynamo-schema: ignore[RULE-ID]' comment that waives nothing: remove it or fix its rule ids."),
    "patch": ("A kustomize patch file is malformed or does not fit its target's schema.",
              "Strategic-merge and JSON6902 patches checked against the schema of the kind they patch "
              "(JSON6902: each operation's shape, its value against the schema of its path)."),
    "kustomize": ("The kustomization could not be built.", "validate --kustomize: kubectl kustomize / kustomize build failed."),
    "helm": ("A Helm chart template (skipped), or the chart could not be rendered.",
             "Chart templates are not manifests until rendered: validate --helm CHART renders them with helm template."),
    "resource": ("The resource failed validation.", "The resource is invalid or could not be validated."),
}


@dataclass(frozen=True)
class RuleHelp:
    family: str
    short: str
    text: str
    uri: str
    level: str


def help_for(rule: str) -> RuleHelp:
    family = rule.split(".", 1)[0]
    short, text = _FAMILIES.get(family, ("A validation rule failed.", "See the rule catalogue."))
    level = "warning" if family == "waiver" else ("note" if family == "policy" else "error")
    return RuleHelp(family, short, text, f"{rules_doc()}#{family}", level)
