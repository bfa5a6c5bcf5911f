"""Job files checked with LAVA's own job schema (lava-common's
lava_common.schemas.validate, strict), as lava-server checks a submission."""

from . import SuiteError


def _lava():
    try:
        from lava_common import schemas
    except ImportError as exc:
        raise SuiteError("lava-common is not installed (apt-get install lava-common): "
                         "the job schema is LAVA's own") from exc
    return schemas


def available():
    try:
        _lava()
    except SuiteError:
        return False
    return True


def validate(data, where):
    """Raises SuiteError naming where (a file) and the failing path."""
    schemas = _lava()
    try:
        schemas.validate(data, strict=True)
    except Exception as exc:  # voluptuous.Invalid and its MultipleInvalid
        path = getattr(exc, "path", None)
        at = "/".join(str(p) for p in path) if path else "(job)"
        raise SuiteError("%s: not a valid LAVA job: %s: %s" % (where, at, getattr(exc, "msg", exc))) from exc


def validate_file(path):
    import yaml

    try:
        with open(path, encoding="utf-8") as f:
            data = yaml.safe_load(f)
    except OSError as exc:
        raise SuiteError("%s: cannot read: %s" % (path, exc.strerror)) from exc
    except yaml.YAMLError as exc:
        raise SuiteError("%s: not YAML: %s" % (path, exc)) from exc
    validate(data, path)
