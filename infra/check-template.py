#!/usr/bin/env python3
"""Checks template.yaml offline: the table matches infra/table.json, the SAM transform
succeeds, and cfn-lint finds no error in the result."""

import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

from cfnlint.decode import cfn_yaml
from samtranslator.translator.managed_policy_translator import ManagedPolicyLoader
from samtranslator.translator.transform import transform
from samtranslator.public.exceptions import InvalidDocumentException

ROOT = pathlib.Path(__file__).resolve().parent.parent
TABLE_KEYS = ["AttributeDefinitions", "KeySchema", "GlobalSecondaryIndexes", "BillingMode"]


class NoManagedPolicies(ManagedPolicyLoader):
    """The template names no managed policy, so no AWS call is needed to look them up."""

    def __init__(self):
        pass

    def load(self):
        return {}


def main() -> int:
    # The transform fills in pseudo parameters; no AWS account is contacted.
    os.environ.setdefault("AWS_DEFAULT_REGION", "us-east-1")
    template = cfn_yaml.load(str(ROOT / "template.yaml"))
    table = json.loads((ROOT / "infra" / "table.json").read_text())
    properties = template["Resources"]["GamesTable"]["Properties"]
    for key in TABLE_KEYS:
        if json.loads(json.dumps(properties.get(key))) != table.get(key):
            print(f"template.yaml: GamesTable {key} differs from infra/table.json")
            return 1
    # `sam package` replaces each local CodeUri with its upload; stand one in for it.
    for resource in template["Resources"].values():
        if resource["Type"] == "AWS::Serverless::Function":
            resource["Properties"]["CodeUri"] = "s3://missive-artifacts/api.zip"
    try:
        translated = transform(template, {}, NoManagedPolicies())
    except InvalidDocumentException as error:
        for cause in error.causes:
            print(f"SAM transform: {cause.message}")
        return 1
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as out:
        json.dump(translated, out, indent=1, default=str)
    linter = shutil.which("cfn-lint") or str(pathlib.Path(sys.executable).with_name("cfn-lint"))
    result = subprocess.run([linter, "--regions", "us-east-1", "--", out.name], check=False)
    # cfn-lint exits 0 when clean, with bit 2 set for errors; warnings (4) and informational
    # notes (8) do not fail; any other status means it did not run.
    if result.returncode not in (0, 4, 8, 12):
        print("cfn-lint found errors in the translated template")
        return 1
    print("template.yaml: table in sync, SAM transform and cfn-lint clean")
    return 0


if __name__ == "__main__":
    sys.exit(main())
