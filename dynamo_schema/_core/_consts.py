"""Label and annotation keys, API groups and resource names that more than one stage uses.

Lowest layer, no imports. A key only one module needs stays in that module. Values are the
operator's (``ai-dynamo/dynamo:deploy/operator/internal/consts``, ``api/v1beta1``).
"""

from __future__ import annotations

# API group and versions
GROUP = "nvidia.com"
V1ALPHA1 = "nvidia.com/v1alpha1"
V1BETA1 = "nvidia.com/v1beta1"

# annotations
ANN_ORIGIN_VERSION = "nvidia.com/dynamo-operator-origin-version"
ANN_WORKLOAD_PROVIDER = "nvidia.com/workload-provider"
ANN_ENABLE_GROVE = "nvidia.com/enable-grove"
ANN_ENABLE_METRICS = "nvidia.com/enable-metrics"
ANN_VLLM_BACKEND = "nvidia.com/vllm-distributed-executor-backend"
ANN_GROVE_UPDATE_STRATEGY = "nvidia.com/grove-update-strategy"
ANN_DISCOVERY_MODE = "nvidia.com/dynamo-kube-discovery-mode"
ANN_DISCOVERY_BACKEND = "nvidia.com/dynamo-discovery-backend"  # also a pod label (same key)
ANN_BASE_MODEL = "nvidia.com/dynamo-base-model"

# labels
LABEL_COMPONENT = "nvidia.com/dynamo-component"
LABEL_COMPONENT_TYPE = "nvidia.com/dynamo-component-type"
LABEL_WORKER_HASH = "nvidia.com/dynamo-worker-hash"
LABEL_MANAGED_BY = "nvidia.com/managed-by"
LABEL_BASE_MODEL_HASH = "nvidia.com/dynamo-base-model-hash"

# resources
GPU_RESOURCE = "nvidia.com/gpu"

# Exported JSON Schemas (docs/decisions.md D46): ``anyOf: [X, NULL_REF]`` lets an explicit null through
# where the API server prunes or defaults it. NULL_DEF (``$defs`` name NULL_DEF_NAME) accepts exactly null
# ("none of the other JSON types"), as ``{"type": "null"}`` would, but names no ``null`` type, so editors
# that read the schema (yaml-language-server) neither offer ``null`` as a value nor word errors as
# "integer | null"; one shared definition keeps the files small.
NULL_DEF_NAME = "PrunedNull"
NULL_DEF = {"not": {"type": ["array", "boolean", "number", "object", "string"]}}
NULL_REF = {"$ref": "#/$defs/" + NULL_DEF_NAME}

# Where the project's documentation is published: the one base of every rule link (the language server's
# ``codeDescription``, SARIF's ``informationUri``/``helpUri``; docs/decisions.md D47, D52). A placeholder
# until the project publishes a site; DYNAMO_SCHEMA_DOCS_URL overrides it. Ends with a slash:
# DOCS_URL + "rules.md#schema".
DOCS_URL = "https://example.invalid/your-mirror/dynamo-schema/docs/"

def rules_url(docs: str | None = None) -> str:
    """The rule catalogue's absolute address (docs/rules.md as published), without a fragment.

    ``docs`` (a documentation base, e.g. the language server's ``docsUrl``) + ``rules.md``; else
    ``$DYNAMO_SCHEMA_RULES_URL`` as it is; else ``$DYNAMO_SCHEMA_DOCS_URL`` or ``DOCS_URL`` + ``rules.md``.
    ValueError when the result is not an absolute URI (SARIF 2.1.0 requires one; RFC 3986 section 4.3)."""
    import os
    import re

    url = os.environ.get("DYNAMO_SCHEMA_RULES_URL") if not docs else None
    source = "DYNAMO_SCHEMA_RULES_URL"
    if not url:
        base = docs or os.environ.get("DYNAMO_SCHEMA_DOCS_URL") or DOCS_URL
        source = "the documentation URL" if docs else "DYNAMO_SCHEMA_DOCS_URL"
        url = base + ("" if base.endswith("/") else "/") + "rules.md"
    if not re.match(r"[A-Za-z][A-Za-z0-9+.-]*:", url) or any(c.isspace() for c in url):
        raise ValueError(f"{source} must be an absolute URI (scheme://...), got {url!r}")
    return url
