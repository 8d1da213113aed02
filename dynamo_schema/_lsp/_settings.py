"""The language server's settings, from ``initializationOptions`` or ``workspace/didChangeConfiguration``.

The settings are those of ``validate`` (docs/cli.md), under one ``dynamo-schema`` section (or at the top
level), camelCase or as on the command line:

* ``operatorVersion`` (``--operator-version``), ``operatorConfig`` (a path, as ``--operator-config FILE``),
  ``settings`` (a mapping, what ``--settings FILE`` holds; wins over ``operatorConfig``), ``set`` (a list of
  ``KEY=VALUE``, as ``--set``; wins over ``settings``): the admission settings, read by
  ``AdmissionSettings.from_mapping`` (feature gates, cluster facts);
* ``strict``, ``kubernetesVersion``, ``ignoreRules`` (``--ignore-rule``), ``skip``, ``reject``,
  ``ignoreMissingSchemas``, ``schemaLocation``: as ``validate``'s options of those names;
* ``debounceMs``: how long after the last change the buffer is checked (default 50);
* ``docsUrl``: where the rule catalogue is published (default ``DOCS_URL``, or ``$DYNAMO_SCHEMA_DOCS_URL``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._core._record import Record

SECTION = "dynamo-schema"
DEBOUNCE_MS = 50


class SettingsError(ValueError):
    """Settings the server cannot use (the message says which and why)."""


class ServerSettings(Record):
    """What the server checks with: ``options`` (``ValidateOptions``), ``policy`` (``KindPolicy``),
    ``ignore_rules``, ``debounce`` (seconds) and the rule catalogue's address ``rules_url``."""

    __slots__ = _FIELDS = ("options", "policy", "ignore_rules", "debounce", "rules_url")
    options: Any
    policy: Any
    ignore_rules: frozenset[str]
    debounce: float
    rules_url: str

    def __init__(self, options: Any, policy: Any, ignore_rules: frozenset[str] = frozenset(),
                 debounce: float = DEBOUNCE_MS / 1000, rules_url: str = "") -> None:
        self.options = options
        self.policy = policy
        self.ignore_rules = ignore_rules
        self.debounce = debounce
        self.rules_url = rules_url


def _norm(key: Any) -> str:
    """``ignore-rule``, ``ignore_rule`` and ``ignoreRule`` alike."""
    return "".join(ch for ch in str(key).lower() if ch.isalnum())


def _section(raw: Any) -> dict[str, Any]:
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise SettingsError(f"settings must be a mapping, got {type(raw).__name__}")
    for name in (SECTION, "dynamoSchema", "dynamo_schema"):
        inner = raw.get(name)
        if isinstance(inner, Mapping):
            raw = inner
            break
    return {_norm(k): v for k, v in raw.items()}


def _strings(name: str, value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [p.strip() for p in value.split(",") if p.strip()]
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        return [v for v in value if v.strip()]
    raise SettingsError(f"setting {name!r} must be a list of strings, got {value!r}")


def _flag(name: str, value: Any, default: bool) -> bool:
    if value is None:
        return default
    if isinstance(value, bool):
        return value
    raise SettingsError(f"setting {name!r} must be true or false, got {value!r}")


def _set_value(key: str, value: str) -> Any:
    """A ``set`` value read as one YAML scalar or flow collection, as ``--set`` reads it."""
    if not value:
        return ""
    import yaml

    try:
        return yaml.load(value, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except (yaml.YAMLError, ValueError, RecursionError) as exc:
        raise SettingsError(f"set {key}: cannot read value {value!r} as YAML: {exc}") from exc


KNOWN = frozenset(_norm(k) for k in (
    "operatorVersion", "operatorConfig", "settings", "set", "strict", "kubernetesVersion", "ignoreRules", "ignoreRule", "skip",
    "reject", "ignoreMissingSchemas", "schemaLocation", "debounceMs", "docsUrl"))


def read_settings(raw: Any) -> ServerSettings:
    """:class:`ServerSettings` from the client's settings object; raises :class:`SettingsError`."""
    from .._admission import AdmissionSettings
    from .._pipeline._kindpolicy import KindPolicy, PolicyError
    from .._pipeline._validate import ValidateOptions

    s = _section(raw)
    unknown = sorted(k for k in s if k not in KNOWN)
    if unknown:
        raise SettingsError(f"unknown setting(s) {', '.join(unknown)}")
    mapping: dict[str, Any] = {}
    config = s.get("operatorconfig")
    if config is not None:
        if not isinstance(config, str):
            raise SettingsError(f"setting 'operatorConfig' must be the path of an OperatorConfiguration file, got {config!r}")
        from .._pipeline._config import ConfigFileError
        from .._pipeline._operatorconfig import read_operator_config

        try:
            mapping.update(read_operator_config(config)[0])
        except ConfigFileError as exc:
            raise SettingsError(str(exc)) from exc
    admission = s.get("settings")
    if admission is not None:
        if not isinstance(admission, Mapping):
            raise SettingsError(f"setting 'settings' must be a mapping of admission settings, got {admission!r}")
        mapping.update(admission)
    for item in _strings("set", s.get("set")):
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise SettingsError(f"set expects KEY=VALUE, got {item!r}")
        mapping[key.strip()] = _set_value(key.strip(), value)
    version = s.get("operatorversion")
    if version:
        mapping = {k: v for k, v in mapping.items() if str(k).replace("-", "_") != "operator_version"}
        mapping["operator_version"] = str(version)
    try:
        admission_settings = AdmissionSettings.from_mapping(mapping) if mapping else None
    except (ValueError, TypeError) as exc:
        raise SettingsError(f"invalid admission settings: {exc}") from exc
    strict = _flag("strict", s.get("strict"), True)
    kubernetes_version = s.get("kubernetesversion") or "1.32.0"
    if not isinstance(kubernetes_version, str):
        raise SettingsError(f"setting 'kubernetesVersion' must be a string, got {kubernetes_version!r}")
    options = ValidateOptions(strict=strict, kubernetes_version=kubernetes_version, settings=admission_settings)
    try:
        policy = KindPolicy.from_options(_strings("skip", s.get("skip")), _strings("reject", s.get("reject")),
                                         _flag("ignoreMissingSchemas", s.get("ignoremissingschemas"), False),
                                         _strings("schemaLocation", s.get("schemalocation")),
                                         kubernetes_version, strict)
    except PolicyError as exc:
        raise SettingsError(str(exc)) from exc
    ignore = frozenset(_strings("ignoreRules", s.get("ignorerules")) + _strings("ignoreRule", s.get("ignorerule")))
    debounce = s.get("debouncems", DEBOUNCE_MS)
    if isinstance(debounce, bool) or not isinstance(debounce, (int, float)) or debounce < 0:
        raise SettingsError(f"setting 'debounceMs' must be a number of milliseconds, got {debounce!r}")
    docs = s.get("docsurl")
    if docs is not None and not isinstance(docs, str):
        raise SettingsError(f"setting 'docsUrl' must be a string, got {docs!r}")
    return ServerSettings(options, policy, ignore, debounce / 1000, rules_url(docs))


def rules_url(docs: str | None = None) -> str:
    """The rule catalogue's address: ``docs/rules.md`` under the documentation's base URL (``docsUrl``, else
    the environment's or the project's; one function with SARIF's ``helpUri``, ``_core._consts.rules_url``)."""
    from .._core._consts import rules_url as catalogue

    try:
        return catalogue(docs)
    except ValueError as exc:
        raise SettingsError(f"setting 'docsUrl': {exc}" if docs else str(exc)) from exc
