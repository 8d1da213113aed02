"""The operator's validating-webhook rules, one module per kind; this is where a new rule goes.

* ``_dgd.py`` - DynamoGraphDeployment create rules (``dynamographdeployment.go``);
* ``_dcd.py`` - DynamoComponentDeployment create rules;
* ``_dgdr.py`` - DynamoGraphDeploymentRequest create and update rules;
* ``_shared.py`` - the component-spec rules DGD and DCD share (``Ctx`` carries the kind and settings);
* ``_update.py`` - UPDATE rules of DGD and DCD (immutability, transitions) and the CRD CEL transition
  rules that need the old object;
* ``_alpha.py`` - rules upstream runs on the v1alpha1 view of an object.

A rule is a function that returns ``list[Diagnostic]`` with a rule id of its family (``dgd.*``,
``dcd.*``, ``dgdr.*``, ``<kind>.*`` for shared ones) and upstream's message; put it in the module of its
kind (or ``_shared.py`` when DGD and DCD both run it), call it from that module's ``validate_*`` entry
point, list it in the rule table of :mod:`dynamo_schema._admission` and in docs/rules.md, and test it from
upstream evidence in tests/admission/. Rules read cluster and operator state only from
:class:`~dynamo_schema._admission._settings.AdmissionSettings`.

The modules here import the admission helpers one level up (``_common``, ``_component``, ``_provider``,
``_runtime_version``, ``_defaults``, ``_settings``), never the other way round (import-linter contract
"_admission: rules above the common helpers"). The entry points ``default`` and ``validate`` are in
:mod:`dynamo_schema._admission`.
"""
