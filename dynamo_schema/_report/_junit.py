"""``--output junit``: ``<testsuites>`` > one ``<testsuite>`` per file > one ``<testcase>`` per resource;
``invalid`` -> ``<failure>``, ``error`` -> ``<error>``, ``skipped`` -> ``<skipped>``; the element text lists
the printed lines; ``--summary``: an XML comment before the root."""

from __future__ import annotations

from ._base import Reporter
from ._result import ResourceResult, printable, skip_reason, summary_counts, text_line, who
from ._summary import summary_line


def junit_xml(results: list[ResourceResult]) -> str:
    import xml.etree.ElementTree as ET

    by_file: dict[str, list[ResourceResult]] = {}
    for r in results:
        by_file.setdefault(r.filename, []).append(r)
    total = summary_counts(results)
    root = ET.Element("testsuites", {
        "name": "dynamo-schema", "tests": str(len(results)), "failures": str(total["invalid"]),
        "errors": str(total["errors"]), "skipped": str(total["skipped"]), "time": "0"})
    for i, (filename, rs) in enumerate(by_file.items()):
        c = summary_counts(rs)
        suite = ET.SubElement(root, "testsuite", {
            "name": filename, "id": str(i), "tests": str(len(rs)), "failures": str(c["invalid"]),
            "errors": str(c["errors"]), "skipped": str(c["skipped"]), "time": "0"})
        for j, r in enumerate(rs):
            api = r.api_version or r.version
            case = ET.SubElement(suite, "testcase", {
                "name": who(r) or f"document {j}", "classname": f"{api}/{r.kind}" if api else (r.kind or filename),
                "file": filename, "time": "0"})
            errs = [d for d in r.diagnostics if d.severity == "error"]
            text = "\n".join(text_line(r, d) for d in printable(r.diagnostics))
            if r.status in ("invalid", "error"):
                tag = "failure" if r.status == "invalid" else "error"
                first = errs[0].message if errs else f"resource is {r.status}"
                if len(errs) > 1:
                    first += f" (and {len(errs) - 1} more)"
                el = ET.SubElement(case, tag, {"message": first, "type": r.status})
                el.text = text
            elif r.status == "skipped":
                ET.SubElement(case, "skipped", {"message": skip_reason(r)})
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


class JunitReporter(Reporter):
    name = "junit"
    streams = False

    def end(self, results: list[ResourceResult]) -> str:
        text = junit_xml(results)
        if self.summary:
            head, _, rest = text.partition("\n")
            line = summary_line(results, self.files_count, self.stdin).replace("--", "- -")
            text = f"{head}\n<!-- {line} -->\n{rest}"
        return text
