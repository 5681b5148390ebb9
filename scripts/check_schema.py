#!/usr/bin/env python3
"""Checks alert specs against a schema of alertd's openapi.yaml with a real JSON Schema validator.

    check_schema.py OPENAPI SPECS [--schema NAME] [--expect-invalid] [--report FILE] [-v]

SPECS is a JSON file holding either an object of named specs ({"app/questionExit@en": {...}})
or an array of specs (named by their index). Each spec is validated against
#/components/schemas/NAME (default AlertSpec) as JSON Schema Draft 2020-12, with every $ref
resolved within the document (jsonschema's referencing registry).

By default every spec must be valid; with --expect-invalid every spec must be rejected. Failures
are printed one per line as `name: /pointer: message`. The pointers follow the server
validator's conventions: a missing member or a member the schema does not allow is reported at
that member (`/cancel`, `/actions/0/colour`), and where a oneOf chooses by a tag (`kind` or
`type`) only the branch of the instance's tag is reported.

--report FILE writes {"name": {"valid": bool, "errors": [{"pointer", "message"}]}} for every
spec, for programs (the Swift SchemaTests) to read.

Exit status: 0 when every spec came out as expected, 1 when some did not, 2 when the document or
the input could not be used (an unresolved $ref, a schema that is not valid JSON Schema, ...).

Needs `jsonschema` (4.18 or later) and `PyYAML`; `make test` installs both into .build/venv.
"""

import argparse
import json
import sys

try:
    import yaml
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012
except ImportError as error:  # pragma: no cover - depends on the environment
    sys.exit(f"check_schema.py: {error}; run `make test` (it installs jsonschema and pyyaml into .build/venv)")

DOCUMENT_URI = "urn:alertd:openapi"
TAGS = ("kind", "type")


class Unusable(Exception):
    """The document or the input cannot be used at all."""


def load_document(path):
    with open(path, encoding="utf-8") as file:
        document = yaml.safe_load(file)
    if not isinstance(document, dict):
        raise Unusable(f"{path} is not a YAML mapping")
    try:
        json.dumps(document)
    except (TypeError, ValueError) as error:
        raise Unusable(f"{path} holds a value JSON has no form for: {error}")
    return document


def resolve_pointer(document, ref):
    """The value `#/a/b` names in the document, or raise KeyError."""
    if not ref.startswith("#"):
        raise KeyError(ref)
    node = document
    for token in ref[1:].split("/")[1:]:
        token = token.replace("~1", "/").replace("~0", "~")
        if isinstance(node, list):
            node = node[int(token)]
        else:
            node = node[token]
    return node


def check_document(document, schema_name):
    """Every local $ref resolves; every schema is valid JSON Schema 2020-12; NAME exists."""
    unresolved = []

    def walk(node, where):
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str):
                try:
                    resolve_pointer(document, ref)
                except (KeyError, IndexError, ValueError, TypeError):
                    unresolved.append(f"{where}: $ref {ref} leads nowhere")
            for key, value in node.items():
                walk(value, f"{where}/{key}")
        elif isinstance(node, list):
            for index, value in enumerate(node):
                walk(value, f"{where}/{index}")

    walk(document, "#")
    if unresolved:
        raise Unusable("\n".join(unresolved))
    schemas = document.get("components", {}).get("schemas", {})
    for name, schema in schemas.items():
        try:
            Draft202012Validator.check_schema(schema)
        except SchemaError as error:
            raise Unusable(f"#/components/schemas/{name} is not valid JSON Schema 2020-12: {error.message}")
    if schema_name not in schemas:
        raise Unusable(f"the document has no #/components/schemas/{schema_name}")


def make_validator(document, schema_name):
    resource = Resource.from_contents(document, default_specification=DRAFT202012)
    registry = Registry().with_resource(DOCUMENT_URI, resource)
    root = {"$ref": f"{DOCUMENT_URI}#/components/schemas/{schema_name}"}
    return Draft202012Validator(root, registry=registry)


def pointer(path):
    return "".join("/" + str(token).replace("~", "~0").replace("/", "~1") for token in path)


def declared_properties(document, schema, seen=None):
    """The members a schema declares at its own level, through allOf/anyOf/oneOf/if/then/else/$ref."""
    seen = set() if seen is None else seen
    if not isinstance(schema, dict) or id(schema) in seen:
        return set()
    seen.add(id(schema))
    names = set(schema.get("properties", {}))
    ref = schema.get("$ref")
    if isinstance(ref, str):
        target = ref[len(DOCUMENT_URI):] if ref.startswith(DOCUMENT_URI) else ref
        try:
            names |= declared_properties(document, resolve_pointer(document, target), seen)
        except (KeyError, IndexError, ValueError):
            pass
    for keyword in ("allOf", "anyOf", "oneOf"):
        for sub in schema.get(keyword, []):
            names |= declared_properties(document, sub, seen)
    for keyword in ("if", "then", "else"):
        names |= declared_properties(document, schema.get(keyword), seen)
    for sub in schema.get("dependentSchemas", {}).values():
        names |= declared_properties(document, sub, seen)
    return names


def tag_of(error):
    """The member a oneOf/anyOf chooses its branch by, when the instance has one."""
    discriminator = error.schema.get("discriminator", {}) if isinstance(error.schema, dict) else {}
    candidates = [discriminator["propertyName"]] if "propertyName" in discriminator else list(TAGS)
    if isinstance(error.instance, dict):
        for name in candidates:
            if name in error.instance:
                return name
    return None


# Failures that say an instance has another shape than a branch (rather than a bad value).
SHAPE = ("required", "additionalProperties", "unevaluatedProperties", "type")
# Failures whose own message says little; the schema's one-line description says why.
EXPLAINED = ("not", "contains", "minContains", "maxContains", "oneOf", "anyOf", "pattern")


def branches_for(error):
    """The context of a failed oneOf/anyOf, narrowed to the branches meant for this instance.

    With a tag (`kind`, `type`), the branches whose tag matches; when none does, a single
    failure naming the allowed tags. Without one, the branches the instance has the shape of
    (no missing, extra or mistyped member at its own level), when there are any.
    """
    branches = {}
    for child in error.context:
        branches.setdefault(child.relative_schema_path[0], []).append(child)
    depth = len(error.absolute_path)
    tag = tag_of(error)
    if tag is not None:
        def is_tag_failure(e):
            return e.validator in ("const", "enum") and len(e.absolute_path) == depth + 1 and e.absolute_path[-1] == tag
        matching = [errors for errors in branches.values() if not any(is_tag_failure(e) for e in errors)]
        if not matching:
            allowed = []
            for errors in branches.values():
                for e in errors:
                    if is_tag_failure(e):
                        values = [e.validator_value] if e.validator == "const" else e.validator_value
                        allowed += [value for value in values if value not in allowed]
            value = error.instance[tag]
            return None, (pointer(list(error.absolute_path) + [tag]),
                          f"{value!r} is not one of: {', '.join(map(str, allowed))}")
        return [e for errors in matching for e in errors], None
    fitting = [
        errors for errors in branches.values()
        if not any(e.validator in SHAPE and len(e.absolute_path) == depth for e in errors)
    ]
    return [e for errors in (fitting or branches.values()) for e in errors], None


def leaves(document, error):
    """(pointer, message) for the innermost failures under `error`."""
    if error.context:
        children, unknown_tag = branches_for(error) if error.validator in ("oneOf", "anyOf") else (error.context, None)
        if unknown_tag:
            yield unknown_tag
            return
        for child in children:
            yield from leaves(document, child)
        return
    at = list(error.absolute_path)
    if error.validator == "required" and isinstance(error.instance, dict):
        missing = [name for name in error.validator_value if name not in error.instance]
        for name in missing:
            yield pointer(at + [name]), f"the member {name!r} is required"
        if missing:
            return
    if error.validator in ("additionalProperties", "unevaluatedProperties") and isinstance(error.instance, dict):
        known = declared_properties(document, error.schema)
        extra = sorted(name for name in error.instance if name not in known)
        for name in extra:
            yield pointer(at + [name]), f"{name!r} is not a member here"
        # unevaluatedProperties also fails when a subschema fails (it then evaluates nothing):
        # with no member unknown, the failure is that subschema's, reported on its own.
        return
    message = error.message
    description = error.schema.get("description") if isinstance(error.schema, dict) else None
    if error.validator in EXPLAINED and isinstance(description, str) and "\n" not in description.strip():
        message = f"{message} ({description.strip()})"
    yield pointer(at), message


def check(validator, document, name, spec):
    errors = list(validator.iter_errors(spec))
    found = []
    for error in errors:
        for leaf in leaves(document, error):
            if leaf not in found:
                found.append(leaf)
    return {"valid": not errors, "errors": [{"pointer": p, "message": m} for p, m in found]}


def load_specs(path):
    with open(path, encoding="utf-8") as file:
        specs = json.load(file)
    if isinstance(specs, list):
        return {str(index): spec for index, spec in enumerate(specs)}
    if isinstance(specs, dict):
        return specs
    raise Unusable(f"{path} must hold an object of named specs or an array of specs")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("openapi", help="the OpenAPI document (YAML)")
    parser.add_argument("specs", help="a JSON file: an object of named specs, or an array of specs")
    parser.add_argument("--schema", default="AlertSpec", help="the schema under #/components/schemas (default: AlertSpec)")
    parser.add_argument("--expect-invalid", action="store_true", help="every spec must be rejected")
    parser.add_argument("--report", metavar="FILE", help="write the outcome of every spec to FILE as JSON")
    parser.add_argument("-v", "--verbose", action="store_true", help="also print why rejected specs were rejected")
    args = parser.parse_args(argv)

    try:
        document = load_document(args.openapi)
        check_document(document, args.schema)
        specs = load_specs(args.specs)
    except (OSError, ValueError, yaml.YAMLError, Unusable) as error:
        print(f"check_schema.py: {error}", file=sys.stderr)
        return 2

    validator = make_validator(document, args.schema)
    results = {name: check(validator, document, name, spec) for name, spec in specs.items()}
    unexpected = [name for name, result in results.items() if result["valid"] == args.expect_invalid]

    for name, result in results.items():
        if result["valid"] and args.expect_invalid:
            print(f"{name}: accepted by {args.schema}, but it should be rejected")
        elif not result["valid"] and (not args.expect_invalid or args.verbose):
            for error in result["errors"]:
                print(f"{name}: {error['pointer'] or '/'}: {error['message']}")

    if args.report:
        with open(args.report, "w", encoding="utf-8") as file:
            json.dump(results, file, indent=1, ensure_ascii=False)

    expectation = "rejected" if args.expect_invalid else "valid"
    print(f"{len(results) - len(unexpected)} of {len(results)} specs {expectation} against #/components/schemas/{args.schema}")
    return 1 if unexpected else 0


if __name__ == "__main__":
    sys.exit(main())
