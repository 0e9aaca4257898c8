#!/usr/bin/env python3
"""Checks template.yaml offline.

- The table matches infra/table.json.
- The signing key is read at run time from an SSM SecureString with least privilege.
- Each function's rights on the game table are exactly the DynamoDB calls of the store:
  the operations of the aws-sdk-dynamodb version Cargo.lock names are read from its source
  in the cargo registry, and every call of one in the store's code (bar operator code) is
  a right it needs; no function may call more than the store, SES and its own clients.
- The notifier's stream and the sweeper's scheduled runs have SQS failure destinations;
  the sweeper runs once at a time, its failed runs not retried.
- The table (also protected from deletion), every log group and every queue are retained
  on the stack's deletion; every log group has a retention.
- Every function is traced by X-Ray, the HTTP API writes a JSON access log.
- Alarms watch each function's errors and throttles, the stream's iterator age, each
  failure queue and the API's 5xx answers, each telling AlarmTopicArn when given.
- The archive import limit fits a synchronous invocation, the request timeout the
  function's; replies by mail are stored by SES where only the inbound function reads them.
- The event feed's WebSocket API: its `$connect`, `$disconnect`, `subscribe` and `$default`
  routes invoke the api function (which API Gateway may invoke), its `ping` route is a mock
  (an idle connection kept open runs no function), its stage writes a JSON access log and an
  alarm watches its integration errors; the functions that post to its connections (the
  api function and the notifier, each given the endpoint) may manage that API's
  connections only. The api function's concurrency is reserved (so polls cannot starve the
  notifier and the sweeper) and its feed polls wait FeedWait at most (5 s by default).
- The VAPID key (Web Push) is read like the signing key, from its own SSM parameter.

Then each of MUTATIONS (a change that breaks one rule, made to a copy of the template or
of the store's sources) must be noticed by these checks; then the SAM transform must
succeed, and cfn-lint find no error in its result."""

import bisect
import copy
import json
import os
import pathlib
import re
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
# A synchronous Lambda invocation's request payload, in bytes.
INVOKE_LIMIT = 6 * 1024 * 1024
# Room kept for the rest of the API Gateway event (headers, request context).
EVENT_ROOM = 64 * 1024


class NoManagedPolicies(ManagedPolicyLoader):
    """The template names no managed policy, so no AWS call is needed to look them up."""

    def __init__(self):
        pass

    def load(self):
        return {}


def plain(node):
    """The template node as plain JSON values (intrinsics as their one-key objects)."""
    return json.loads(json.dumps(node, default=str))


def functions(template):
    """The template's functions, by logical id."""
    return {
        name: resource
        for name, resource in template["Resources"].items()
        if resource["Type"] == "AWS::Serverless::Function"
    }


def environment(template, function):
    """A function's environment, the Globals' under its own."""
    variables = dict(
        template.get("Globals", {}).get("Function", {}).get("Environment", {}).get("Variables", {})
    )
    variables.update(function["Properties"].get("Environment", {}).get("Variables", {}))
    return variables


def statements(function):
    """The inline policy statements of a function."""
    return [
        statement
        for policy in function["Properties"].get("Policies", [])
        if isinstance(policy, dict) and "Statement" in policy
        for statement in policy["Statement"]
    ]


def actions(statement):
    """The actions a policy statement names, as a list."""
    action = statement.get("Action", [])
    return [action] if isinstance(action, str) else list(action)


def check_signing_key(template):
    """The key is read at run time from the SSM parameter, through one least-privilege
    policy shared by every function, and is never in an environment."""
    problems = []
    for name, parameter in template["Parameters"].items():
        if parameter["Type"].startswith("AWS::SSM::Parameter::Value"):
            problems.append(f"parameter {name} resolves SSM at deploy time into the template")
    if template["Parameters"].get("SigningKeyParameter", {}).get("Type") != "String":
        problems.append("SigningKeyParameter must be the parameter's name (a String)")
    policy = template["Resources"].get("SigningKeyAccess", {})
    if policy.get("Type") != "AWS::IAM::ManagedPolicy":
        problems.append("SigningKeyAccess must be a managed policy")
        return problems
    granted = policy["Properties"]["PolicyDocument"]["Statement"]
    by_action = {tuple(actions(s)): s for s in granted}
    if set(by_action) != {("ssm:GetParameter",), ("kms:Decrypt",)}:
        problems.append(f"SigningKeyAccess must allow ssm:GetParameter and kms:Decrypt only: {list(by_action)}")
        return problems
    read = by_action[("ssm:GetParameter",)]["Resource"]
    if read != KEY_PARAMETERS:
        problems.append(f"ssm:GetParameter must name the signing key's and the VAPID key's parameters only: {read}")
    decrypt = by_action[("kms:Decrypt",)]
    if "kms:ViaService" not in json.dumps(decrypt.get("Condition")):
        problems.append("kms:Decrypt must be limited to use through SSM (kms:ViaService)")
    if "alias/aws/ssm" not in json.dumps(decrypt.get("Condition")):
        problems.append("kms:Decrypt must default to the AWS managed key of SSM")
    for name, function in functions(template).items():
        env = environment(template, function)
        if "MISSIVE_SIGNING_KEY" in env:
            problems.append(f"{name}: the signing key itself is in the environment")
        if env.get("MISSIVE_SIGNING_KEY_PARAMETER") != {"Ref": "SigningKeyParameter"}:
            problems.append(f"{name}: MISSIVE_SIGNING_KEY_PARAMETER must name SigningKeyParameter")
        if env.get("MISSIVE_VAPID_KEY_PARAMETER") != VAPID_PARAMETER:
            problems.append(f"{name}: MISSIVE_VAPID_KEY_PARAMETER must name VapidKeyParameter when given")
        if "MISSIVE_VAPID_KEY" in env:
            problems.append(f"{name}: the VAPID key itself is in the environment")
        if {"Ref": "SigningKeyAccess"} not in function["Properties"].get("Policies", []):
            problems.append(f"{name}: SigningKeyAccess is not among its policies")
        for statement in statements(function):
            if any(a.startswith(("ssm:", "kms:")) or a == "*" for a in actions(statement)):
                problems.append(f"{name}: SSM or KMS rights beyond SigningKeyAccess")
    return problems


# The parameters SigningKeyAccess lets every function read: the signing key's, and the
# VAPID key's when one is given.
KEY_PARAMETERS = [
    {"Fn::Sub": "arn:${AWS::Partition}:ssm:${AWS::Region}:${AWS::AccountId}:parameter${SigningKeyParameter}"},
    {
        "Fn::If": [
            "HasVapidKey",
            {"Fn::Sub": "arn:${AWS::Partition}:ssm:${AWS::Region}:${AWS::AccountId}:parameter${VapidKeyParameter}"},
            {"Ref": "AWS::NoValue"},
        ]
    },
]
VAPID_PARAMETER = {"Fn::If": ["HasVapidKey", {"Ref": "VapidKeyParameter"}, {"Ref": "AWS::NoValue"}]}


def failure_queue(destination):
    """The logical id of the queue a failure destination names (`!GetAtt QUEUE.Arn`)."""
    target = destination.get("Destination") if isinstance(destination, dict) else None
    return (target.get("Fn::GetAtt") or [None])[0] if isinstance(target, dict) else None


def failure_queues(template):
    """The failure destinations of the template (stream mappings' and asynchronous
    invocations'), by the logical id of the resource each names, with whose they are."""
    queues = {}
    for name, resource in template["Resources"].items():
        if resource["Type"] == "AWS::Lambda::EventSourceMapping":
            config = resource["Properties"].get("DestinationConfig", {})
        elif resource["Type"] == "AWS::Serverless::Function":
            config = resource["Properties"].get("EventInvokeConfig", {}).get("DestinationConfig", {})
        else:
            continue
        queue = failure_queue(config.get("OnFailure"))
        if queue:
            queues[queue] = name
    return queues


def check_stream_failures(template):
    """Stream batches the notifier gives up on go to an SQS queue it may send to."""
    resources = template["Resources"]
    mapping = resources["NotifierStream"]["Properties"]
    queue = failure_queue(mapping.get("DestinationConfig", {}).get("OnFailure"))
    if resources.get(queue, {}).get("Type") != "AWS::SQS::Queue":
        return ["NotifierStream has no SQS failure destination"]
    notifier = mapping["FunctionName"]["Ref"]
    sends = [
        s
        for s in statements(resources[notifier])
        if "sqs:SendMessage" in actions(s) and s.get("Resource") == {"Fn::GetAtt": [queue, "Arn"]}
    ]
    return [] if sends else [f"{notifier} may not send to {queue}"]


def scheduled(template):
    """The functions a schedule invokes, by logical id."""
    return {
        name: function
        for name, function in functions(template).items()
        if any(
            event.get("Type") in ("Schedule", "ScheduleV2")
            for event in function["Properties"].get("Events", {}).values()
        )
    }


def check_scheduled(template):
    """A scheduled function runs one invocation at a time (reserved concurrency 1), and an
    invocation that fails is not retried but described on an SQS queue of the template
    (destination type SQS: SAM grants the function sqs:SendMessage on that queue alone)."""
    resources = template["Resources"]
    problems = []
    for name, function in scheduled(template).items():
        properties = function["Properties"]
        if properties.get("ReservedConcurrentExecutions") != 1:
            problems.append(f"{name}: ReservedConcurrentExecutions must be 1 (one run at a time)")
        config = properties.get("EventInvokeConfig", {})
        if config.get("MaximumRetryAttempts") != 0:
            problems.append(f"{name}: EventInvokeConfig.MaximumRetryAttempts must be 0")
        failure = config.get("DestinationConfig", {}).get("OnFailure", {})
        queue = failure_queue(failure)
        if failure.get("Type") != "SQS" or resources.get(queue, {}).get("Type") != "AWS::SQS::Queue":
            problems.append(f"{name}: failed invocations must go to an SQS queue of the template (OnFailure, Type SQS)")
    return problems


# Kept when the stack is deleted or a resource replaced: the games, the logs, the
# descriptions of failures.
KEPT = ("AWS::DynamoDB::Table", "AWS::Logs::LogGroup", "AWS::SQS::Queue")


def check_kept(template):
    """Every table, log group and queue is retained on the stack's deletion and on
    replacement; every table is protected from deletion, and every log group has a
    retention."""
    problems = []
    for name, resource in template["Resources"].items():
        if resource["Type"] not in KEPT:
            continue
        for policy in ("DeletionPolicy", "UpdateReplacePolicy"):
            if resource.get(policy) != "Retain":
                problems.append(f"{name}: {policy} must be Retain")
        properties = resource.get("Properties") or {}
        if resource["Type"] == "AWS::DynamoDB::Table" and properties.get("DeletionProtectionEnabled") is not True:
            problems.append(f"{name}: DeletionProtectionEnabled must be true")
        if resource["Type"] == "AWS::Logs::LogGroup" and "RetentionInDays" not in properties:
            problems.append(f"{name}: a log group without RetentionInDays")
    return problems


def check_tracing(template):
    """Every function is traced by X-Ray (its own Tracing or the Globals')."""
    default = template.get("Globals", {}).get("Function", {}).get("Tracing")
    return [
        f"{name}: Tracing must be Active"
        for name, function in functions(template).items()
        if function["Properties"].get("Tracing", default) != "Active"
    ]


# What each access log line of an HTTP API says.
ACCESS_LOG_FIELDS = {
    "requestId",
    "ip",
    "requestTime",
    "httpMethod",
    "routeKey",
    "status",
    "responseLength",
    "integrationError",
    "latency",
}


# What each access log line of a WebSocket API says.
SOCKET_LOG_FIELDS = {
    "requestId",
    "ip",
    "requestTime",
    "eventType",
    "routeKey",
    "status",
    "connectionId",
    "integrationError",
}


def check_access_logs(template):
    """Every HTTP API logs each request as a JSON line of ACCESS_LOG_FIELDS, and every
    stage of a WebSocket API each event as one of SOCKET_LOG_FIELDS (each a `$context`
    variable), into a log group of the template."""
    resources = template["Resources"]
    problems = []
    for name, api in resources.items():
        if api["Type"] == "AWS::Serverless::HttpApi":
            wanted = ACCESS_LOG_FIELDS
        elif api["Type"] == "AWS::ApiGatewayV2::Stage":
            wanted = SOCKET_LOG_FIELDS
        else:
            continue
        settings = api["Properties"].get("AccessLogSettings", {})
        group = (settings.get("DestinationArn", {}).get("Fn::GetAtt") or [None])[0]
        if resources.get(group, {}).get("Type") != "AWS::Logs::LogGroup":
            problems.append(f"{name}: no access log into a log group of the template (AccessLogSettings)")
            continue
        try:
            line = json.loads(settings.get("Format", ""))
        except (TypeError, ValueError):
            line = {}
        fields = {k for k, v in line.items() if str(v).startswith("$context.")} if isinstance(line, dict) else set()
        if not wanted <= fields:
            missing = ", ".join(sorted(wanted - fields))
            problems.append(f"{name}: the access log format must be JSON with {missing}")
    return problems


# The alarm actions of every alarm: the topic, when one is given.
ALARM_ACTIONS = {"Fn::If": ["HasAlarmTopic", [{"Ref": "AlarmTopicArn"}], {"Ref": "AWS::NoValue"}]}


def wanted_alarms(template):
    """The alarms the template must have, derived from its resources: (what is watched,
    namespace, metric, statistic, dimension, its value, the condition it exists under)."""
    resources = template["Resources"]
    wanted = []
    for name, function in functions(template).items():
        for metric in ("Errors", "Throttles"):
            wanted.append((name, "AWS/Lambda", metric, "Sum", "FunctionName", {"Ref": name}, function.get("Condition")))
    for mapping in resources.values():
        if mapping["Type"] == "AWS::Lambda::EventSourceMapping" and "StreamArn" in json.dumps(
            mapping["Properties"].get("EventSourceArn")
        ):
            reader = mapping["Properties"]["FunctionName"]
            wanted.append(
                (reader["Ref"], "AWS/Lambda", "IteratorAge", "Maximum", "FunctionName", reader, mapping.get("Condition"))
            )
    for queue in failure_queues(template):
        value = {"Fn::GetAtt": [queue, "QueueName"]}
        condition = resources.get(queue, {}).get("Condition")
        wanted.append((queue, "AWS/SQS", "ApproximateNumberOfMessagesVisible", "Maximum", "QueueName", value, condition))
    for name, api in resources.items():
        if api["Type"] == "AWS::Serverless::HttpApi":
            wanted.append((name, "AWS/ApiGateway", "5xx", "Sum", "ApiId", {"Ref": name}, api.get("Condition")))
        if api["Type"] == "AWS::ApiGatewayV2::Api":
            wanted.append(
                (name, "AWS/ApiGateway", "IntegrationError", "Sum", "ApiId", {"Ref": name}, api.get("Condition"))
            )
    return wanted


def check_alarms(template):
    """Alarms watch each function's errors and throttles, each stream reader's iterator
    age, each failure queue holding a message and each HTTP API's 5xx answers, each under
    the condition of what it watches; every alarm tells AlarmTopicArn when given."""
    alarms = {
        name: resource
        for name, resource in template["Resources"].items()
        if resource["Type"] == "AWS::CloudWatch::Alarm"
    }
    problems = []
    for what, namespace, metric, statistic, dimension, value, condition in wanted_alarms(template):
        found = {
            name: alarm
            for name, alarm in alarms.items()
            if alarm["Properties"].get("Namespace") == namespace
            and alarm["Properties"].get("MetricName") == metric
            and alarm["Properties"].get("Statistic") == statistic
            and {"Name": dimension, "Value": value} in alarm["Properties"].get("Dimensions", [])
        }
        if not found:
            problems.append(f"{what}: no alarm on its {metric} ({namespace}, {statistic})")
        for name, alarm in found.items():
            if alarm.get("Condition") != condition:
                problems.append(f"{name}: must exist under the condition of {what} ({condition})")
    for name, alarm in alarms.items():
        if alarm["Properties"].get("AlarmActions") != ALARM_ACTIONS:
            problems.append(f"{name}: AlarmActions must be AlarmTopicArn when given")
    return problems


def check_log_retention(template):
    """Every function logs into a log group of the template with a retention."""
    resources = template["Resources"]
    problems = []
    for name, function in functions(template).items():
        group = function["Properties"].get("LoggingConfig", {}).get("LogGroup", {}).get("Ref")
        logs = resources.get(group, {})
        if logs.get("Type") != "AWS::Logs::LogGroup" or "RetentionInDays" not in (logs.get("Properties") or {}):
            problems.append(f"{name}: no log group with a retention (LoggingConfig.LogGroup)")
    return problems


def check_api_limits(template):
    """The archive import limit fits a synchronous invocation once base64-encoded, and the
    request timeout answers before the function's own timeout."""
    api = template["Resources"]["ApiFunction"]
    env = environment(template, api)
    problems = []
    limit = int(env.get("MISSIVE_ARCHIVE_LIMIT", 8 * 1024 * 1024))
    encoded = (limit + 2) // 3 * 4
    if encoded + EVENT_ROOM > INVOKE_LIMIT:
        problems.append(
            f"ApiFunction: MISSIVE_ARCHIVE_LIMIT {limit} is {encoded} bytes base64-encoded, "
            f"beyond a synchronous invocation ({INVOKE_LIMIT} less {EVENT_ROOM} for the event)"
        )
    timeout = int(api["Properties"].get("Timeout", template["Globals"]["Function"]["Timeout"]))
    request = int(env.get("MISSIVE_REQUEST_TIMEOUT", 30))
    if request >= timeout:
        problems.append(f"ApiFunction: MISSIVE_REQUEST_TIMEOUT {request} s is not within its Timeout {timeout} s")
    return problems


# The items of a transaction, by the builder of their type, each allowed by the action of
# its own kind: IAM has no action for a transaction as a whole.
TRANSACTION_ITEMS = {
    "transact_write_items": {
        "Put": "PutItem",
        "Update": "UpdateItem",
        "Delete": "DeleteItem",
        "ConditionCheck": "ConditionCheckItem",
    },
    "transact_get_items": {"Get": "GetItem"},
}
# Operations IAM allows by other names (PartiQL's statements by dynamodb:PartiQL*).
UNDERIVED = {"execute_statement", "batch_execute_statement", "execute_transaction"}
STORE = ROOT / "shared" / "store" / "src" / "dynamodb"
# Code only the operator runs (the `missive` command, `missive table create`, its scans),
# never a Lambda function: its calls need no right, and its calls of the store's methods do
# not make those methods reached.
OPERATOR_FILES = {STORE / "operator.rs", STORE / "table.rs"}
OPERATOR_CRATE = ROOT / "functions" / "missive"


class RustSource:
    """A Rust file's text without its comments, and where each of its functions begins."""

    def __init__(self, text):
        self.text = re.sub(r"//[^\n]*", "", text)
        starts = [(m.start(), m.group(1)) for m in re.finditer(r"\bfn\s+(\w+)", self.text)]
        self.offsets = [offset for offset, _ in starts]
        self.names = [name for _, name in starts]

    def enclosing_function(self, offset):
        """The name of the function whose body holds `offset` (the last `fn` before it)."""
        index = bisect.bisect_right(self.offsets, offset)
        return self.names[index - 1] if index else None


def dynamodb_operations():
    """The operations of the DynamoDB client (snake case), read off the source of the
    aws-sdk-dynamodb version Cargo.lock names: each is a folder of its `src/operation/`.
    A `str` describing what is missing when that source is not in the cargo registry."""
    lock = (ROOT / "Cargo.lock").read_text()
    versions = re.findall(r'name = "aws-sdk-dynamodb"\nversion = "([^"]+)"', lock)
    if not versions:
        return "Cargo.lock names no aws-sdk-dynamodb"
    registry = pathlib.Path(os.environ.get("CARGO_HOME", pathlib.Path.home() / ".cargo")) / "registry" / "src"
    operations = set()
    for version in versions:
        found = sorted(registry.glob(f"*/aws-sdk-dynamodb-{version}/src/operation"))
        if not found:
            return (
                f"the source of aws-sdk-dynamodb {version} is not under {registry} "
                "(`cargo fetch` brings it): the store's DynamoDB calls cannot be derived"
            )
        operations.update(entry.name for entry in found[0].iterdir() if entry.is_dir())
    return operations


def store_sources():
    """The store's DynamoDB code that functions may run (operator files left out), by
    path; and where functions are called from outside operator code: for each name called,
    the names of the functions whose bodies call it."""
    rust = {
        path: RustSource(path.read_text())
        for path in sorted(ROOT.rglob("*.rs"))
        if "target" not in path.relative_to(ROOT).parts
        and path not in OPERATOR_FILES
        and OPERATOR_CRATE not in path.parents
    }
    calls = {}
    for source in rust.values():
        for match in re.finditer(r"(?<!fn )\b(\w+)\s*(?:::<[^>]*>)?\(", source.text):
            calls.setdefault(match.group(1), set()).add(source.enclosing_function(match.start()))
    return {"store": {path: source for path, source in rust.items() if path.parent == STORE}, "calls": calls}


def reached(name, calls):
    """Whether the function `name` is called from outside its own body anywhere but in
    operator code (by name only: a function of the same name elsewhere counts too, which
    errs towards granting)."""
    return name is None or bool(calls.get(name, set()) - {name})


def store_actions(sources, operations):
    """The IAM actions the store's DynamoDB code needs, and problems: each client call
    (`.operation_name(`) in a function something outside operator code calls, as
    `dynamodb:OperationName`; each item its transactions build, as the item's own action."""
    if isinstance(operations, str):
        return set(), [operations]
    needed, problems, transactions, items = set(), [], set(), set()
    for path, source in sources["store"].items():
        uses = [(m, m.group(1)) for m in re.finditer(r"\.(\w+)\s*\(", source.text) if m.group(1) in operations]
        uses += [(m, m.group(1) + "::builder") for m in re.finditer(r"\b(\w+)::builder\s*\(", source.text)]
        for match, use in uses:
            if not reached(source.enclosing_function(match.start()), sources["calls"]):
                continue
            if use.endswith("::builder"):
                items.add(use.removesuffix("::builder"))
            elif use in TRANSACTION_ITEMS:
                transactions.add(use)
            elif use in UNDERIVED:
                problems.append(f"{path.name} calls {use}, whose IAM actions this check does not derive")
            else:
                needed.add("dynamodb:" + "".join(word.title() for word in use.split("_")))
    for transaction in transactions:
        needed.update(f"dynamodb:{action}" for item, action in TRANSACTION_ITEMS[transaction].items() if item in items)
    return needed, problems


def table_statements(function):
    """A function's statements on the game table and its indexes."""
    table = {"Fn::GetAtt": ["GamesTable", "Arn"]}
    indexes = {"Fn::Sub": "${GamesTable.Arn}/index/*"}
    found = []
    for statement in statements(function):
        resources = statement.get("Resource")
        resources = resources if isinstance(resources, list) else [resources]
        if table in resources or indexes in resources:
            found.append(statement)
    return found


def check_table_rights(template, needed):
    """Every function may make exactly the calls the store makes, on the table and its
    indexes (each function links the whole store): none lacking, none beyond."""
    problems = []
    for name, function in functions(template).items():
        granted = {a for s in table_statements(function) for a in actions(s)}
        problems += [f"{name}: may not call {a} on GamesTable, which the store does" for a in sorted(needed - granted)]
        problems += [f"{name}: may call {a} on GamesTable, which the store never does" for a in sorted(granted - needed)]
    return problems


# What each function may call besides the table, the signing key and SES: the inbound
# function reads the replies SES stored (s3:GetObject), and the notifier describes the
# stream records it gives up on (sqs:SendMessage) and reads its stream.
CLIENT_CALLS = {
    "InboundFunction": {"s3:GetObject"},
    "ApiFunction": {"execute-api:ManageConnections"},
    "NotifierFunction": {
        "execute-api:ManageConnections",
        "sqs:SendMessage",
        "dynamodb:DescribeStream",
        "dynamodb:GetRecords",
        "dynamodb:GetShardIterator",
        "dynamodb:ListStreams",
    },
}
BASE_CALLS = {"ses:SendEmail", "ses:SendRawEmail"}


def check_client_calls(template, allowed_store):
    """No function may call more than the store, SES and what CLIENT_CALLS names for it."""
    problems = []
    for name, function in functions(template).items():
        allowed = allowed_store | BASE_CALLS | CLIENT_CALLS.get(name, set())
        extra = sorted({a for s in statements(function) for a in actions(s)} - allowed)
        if extra:
            problems.append(f"{name}: may call {', '.join(extra)}, which it never does")
    return problems


def check_inbound(template):
    """Replies by mail: SES may only put objects under the bucket's prefix, from this
    account's receipt rule; the rule stores each message there, then invokes the inbound
    function, which may read that prefix only."""
    resources = template["Resources"]
    if "InboundFunction" not in resources:
        return []
    problems = []
    bucket = {"Fn::Sub": "${InboundMail.Arn}/inbound/*"}
    policy = resources["InboundMailPolicy"]["Properties"]["PolicyDocument"]["Statement"]
    for statement in policy:
        if statement.get("Principal") != {"Service": "ses.amazonaws.com"} or actions(statement) != ["s3:PutObject"]:
            problems.append("InboundMailPolicy: only SES may put objects")
        if statement.get("Resource") != bucket:
            problems.append("InboundMailPolicy: SES may put objects under inbound/ only")
        condition = json.dumps(statement.get("Condition"))
        if "aws:SourceAccount" not in condition or "aws:SourceArn" not in condition:
            problems.append("InboundMailPolicy: SES must be limited to this account's rule")
    rule = resources["InboundRule"]["Properties"]["Rule"]
    kinds = [next(iter(action)) for action in rule["Actions"]]
    if kinds != ["S3Action", "LambdaAction"]:
        problems.append(f"InboundRule: must store the message, then invoke the function: {kinds}")
    else:
        stored, invoked = rule["Actions"][0]["S3Action"], rule["Actions"][1]["LambdaAction"]
        if stored.get("BucketName") != {"Ref": "InboundMail"} or stored.get("ObjectKeyPrefix") != "inbound/":
            problems.append("InboundRule: must store into InboundMail under inbound/")
        if invoked.get("FunctionArn") != {"Fn::GetAtt": ["InboundFunction", "Arn"]}:
            problems.append("InboundRule: must invoke InboundFunction")
    reads = [s for s in statements(resources["InboundFunction"]) if "s3:GetObject" in actions(s)]
    if [s.get("Resource") for s in reads] != [bucket]:
        problems.append("InboundFunction: s3:GetObject on InboundMail's inbound/ only")
    env = environment(template, resources["InboundFunction"])
    if env.get("MISSIVE_INBOUND_BUCKET") != {"Ref": "InboundMail"} or env.get("MISSIVE_INBOUND_PREFIX") != "inbound/":
        problems.append("InboundFunction: must read the bucket and prefix the rule stores into")
    return problems


# The functions that post to the WebSocket API's connections: the api function (a
# subscription's events) and the notifier (each change's).
SOCKET_SENDERS = ("ApiFunction", "NotifierFunction")
# The routes of the WebSocket API that invoke the api function.
SOCKET_ROUTES = {"$connect", "$disconnect", "subscribe", "$default"}


def socket_api(template):
    """The logical id of the template's WebSocket API."""
    return next(
        name
        for name, resource in template["Resources"].items()
        if resource["Type"] == "AWS::ApiGatewayV2::Api" and resource["Properties"].get("ProtocolType") == "WEBSOCKET"
    )


def socket_routes(template, api):
    """The routes of WebSocket API `api`: route key to the integration's properties."""
    resources = template["Resources"]
    routes = {}
    for resource in resources.values():
        properties = resource.get("Properties") or {}
        if resource["Type"] != "AWS::ApiGatewayV2::Route" or properties.get("ApiId") != {"Ref": api}:
            continue
        target = str(properties.get("Target", {}).get("Fn::Sub", ""))
        integration = target.removeprefix("integrations/${").removesuffix("}")
        routes[properties["RouteKey"]] = (resources.get(integration) or {}).get("Properties", {})
    return routes


def check_sockets(template):
    """The event feed's WebSocket API: its routes, who may post to its connections, and
    the api function's reserved concurrency and poll wait."""
    resources = template["Resources"]
    try:
        api = socket_api(template)
    except StopIteration:
        return ["no WebSocket API (AWS::ApiGatewayV2::Api, WEBSOCKET) for the event feed"]
    problems = []
    if resources[api]["Properties"].get("RouteSelectionExpression") != "$request.body.action":
        problems.append(f"{api}: routes must be selected by $request.body.action")
    routes = socket_routes(template, api)
    function = {"Fn::Sub": "arn:${AWS::Partition}:apigateway:${AWS::Region}:lambda:path/2015-03-31/functions/${ApiFunction.Arn}/invocations"}
    for route in sorted(SOCKET_ROUTES):
        integration = routes.get(route, {})
        if integration.get("IntegrationType") != "AWS_PROXY" or integration.get("IntegrationUri") != function:
            problems.append(f"{api}: route {route} must invoke ApiFunction (AWS_PROXY)")
    if routes.get("ping", {}).get("IntegrationType") != "MOCK":
        problems.append(f"{api}: route ping must be a mock, so that keeping a connection open runs no function")
    source = {"Fn::Sub": "arn:${AWS::Partition}:execute-api:${AWS::Region}:${AWS::AccountId}:${" + api + "}/*"}
    invokes = [
        r
        for r in resources.values()
        if r["Type"] == "AWS::Lambda::Permission"
        and r["Properties"].get("FunctionName") == {"Ref": "ApiFunction"}
        and r["Properties"].get("Principal") == "apigateway.amazonaws.com"
        and r["Properties"].get("SourceArn") == source
    ]
    if not invokes:
        problems.append(f"ApiFunction: {api} may not invoke it (AWS::Lambda::Permission)")
    stages = [
        name
        for name, r in resources.items()
        if r["Type"] == "AWS::ApiGatewayV2::Stage" and r["Properties"].get("ApiId") == {"Ref": api}
    ]
    if len(stages) != 1:
        return problems + [f"{api}: one stage wanted, found {stages}"]
    endpoint = "https://${" + api + "}.execute-api.${AWS::Region}.${AWS::URLSuffix}/${" + stages[0] + "}"
    connections = "arn:${AWS::Partition}:execute-api:${AWS::Region}:${AWS::AccountId}:${" + api + "}/${" + stages[0] + "}/POST/@connections/*"
    for name, function in functions(template).items():
        manages = [s for s in statements(function) if "execute-api:ManageConnections" in actions(s)]
        sends = name in SOCKET_SENDERS
        if sends and environment(template, function).get("MISSIVE_SOCKET_ENDPOINT") != {"Fn::Sub": endpoint}:
            problems.append(f"{name}: MISSIVE_SOCKET_ENDPOINT must be {api}'s stage endpoint")
        if sends and [s.get("Resource") for s in manages] != [{"Fn::Sub": connections}]:
            problems.append(f"{name}: may manage {api}'s connections only, and must")
        if not sends and manages:
            problems.append(f"{name}: may manage connections, which it never does")
    properties = resources["ApiFunction"]["Properties"]
    reserved = {"Fn::If": ["HasApiConcurrency", {"Ref": "ApiReservedConcurrency"}, {"Ref": "AWS::NoValue"}]}
    if properties.get("ReservedConcurrentExecutions") != reserved:
        problems.append("ApiFunction: ReservedConcurrentExecutions must be ApiReservedConcurrency (so polls cannot starve the other functions)")
    wait = template["Parameters"].get("FeedWait", {})
    if environment(template, resources["ApiFunction"]).get("MISSIVE_FEED_WAIT") != {"Ref": "FeedWait"}:
        problems.append("ApiFunction: MISSIVE_FEED_WAIT must be FeedWait")
    elif not (int(wait.get("Default", 99)) <= 5 and int(wait.get("MaxValue", 99)) <= 25):
        problems.append("FeedWait: at most 5 s by default and 25 s in all")
    return problems


def check_all(template, sources, operations):
    """Every problem the checks find in the template (plain JSON values) given the store's
    sources and the DynamoDB client's operations."""
    needed, problems = store_actions(sources, operations)
    return (
        problems
        + check_signing_key(template)
        + check_stream_failures(template)
        + check_log_retention(template)
        + check_api_limits(template)
        + check_table_rights(template, needed)
        + check_client_calls(template, needed)
        + check_inbound(template)
        + check_sockets(template)
        + check_scheduled(template)
        + check_kept(template)
        + check_tracing(template)
        + check_access_logs(template)
        + check_alarms(template)
    )


def first(template, kind):
    """The logical id of the template's first resource of type `kind`."""
    return next(name for name, resource in template["Resources"].items() if resource["Type"] == kind)


def alarm_on(template, metric, value):
    """The logical id of the first alarm on `metric` whose dimension has `value`."""
    return next(
        name
        for name, alarm in template["Resources"].items()
        if alarm["Type"] == "AWS::CloudWatch::Alarm"
        and alarm["Properties"].get("MetricName") == metric
        and value in [dimension["Value"] for dimension in alarm["Properties"].get("Dimensions", [])]
    )


def without_alarm(metric, watched):
    """A mutation removing the alarm on `metric` of what `watched(template)` names."""

    def mutate(template, sources, operations):
        value = watched(template)
        reference = {"Fn::GetAtt": [value, "QueueName"]} if metric.startswith("Approximate") else {"Ref": value}
        del template["Resources"][alarm_on(template, metric, reference)]
        return sources

    return mutate


def with_table_actions(change):
    """A mutation changing the first function's table actions with `change(actions)`."""

    def mutate(template, sources, operations):
        statement = table_statements(template["Resources"][first(template, "AWS::Serverless::Function")])[0]
        statement["Action"] = change(actions(statement))
        return sources

    return mutate


def with_store_call(call):
    """A mutation of the store's sources: `.call()` made beside its first counted call."""

    def mutate(template, sources, operations):
        for path, source in sources["store"].items():
            for match in re.finditer(r"\.(\w+)\s*\(", source.text):
                if match.group(1) in operations and reached(
                    source.enclosing_function(match.start()), sources["calls"]
                ):
                    text = source.text[: match.start()] + f".{call}()" + source.text[match.start() :]
                    return {**sources, "store": {**sources["store"], path: RustSource(text)}}
        raise LookupError("the store makes no call")

    return mutate


def node_at(template, path):
    """The node holding the last key of `path` and that key (a callable step of `path` is
    given the template and answers its key)."""
    keys = [step(template) if callable(step) else step for step in path]
    node = template
    for key in keys[:-1]:
        node = node[key]
    return node, keys[-1]


def removing(*path):
    """A mutation deleting the template node at `path` (as in `node_at`)."""

    def mutate(template, sources, operations):
        node, key = node_at(template, path)
        del node[key]
        return sources

    return mutate


def setting(change, *path):
    """A mutation replacing the template node at `path` (as in `node_at`) with
    `change(node)`."""

    def mutate(template, sources, operations):
        node, key = node_at(template, path)
        node[key] = change(node[key])
        return sources

    return mutate


def an_unwatched_function(template, sources, operations):
    """A mutation adding a function (a copy of the first) with no alarm of its own."""
    template["Resources"]["UnwatchedFunction"] = copy.deepcopy(
        template["Resources"][first(template, "AWS::Serverless::Function")]
    )
    return sources


def scheduled_function(template):
    """The logical id of the template's first scheduled function."""
    return next(iter(scheduled(template)))


def scheduled_queue(template):
    """The logical id of the failure queue of the first scheduled function."""
    return failure_queue(
        template["Resources"][scheduled_function(template)]["Properties"]["EventInvokeConfig"]["DestinationConfig"]["OnFailure"]
    )


def stream_reader(template):
    """The logical id of the function the first event source mapping invokes."""
    return template["Resources"][first(template, "AWS::Lambda::EventSourceMapping")]["Properties"]["FunctionName"]["Ref"]


def conditional_function(template):
    """The logical id of the first function that exists under a condition."""
    return next(name for name, function in functions(template).items() if "Condition" in function)


def first_function(template):
    """The logical id of the template's first function."""
    return first(template, "AWS::Serverless::Function")


def without_field(field):
    """An access log format lacking `field`."""
    return lambda format: json.dumps({k: v for k, v in json.loads(format).items() if k != field})


# Changes the checks must each notice, by what they break: the checks are run on each,
# applied to a copy of the template (and of the store's sources).
MUTATIONS = [
    ("a function lacks a store action", with_table_actions(lambda granted: granted[1:])),
    ("a function may scan", with_table_actions(lambda granted: granted + ["dynamodb:Scan"])),
    ("the store calls scan", with_store_call("scan")),
    ("a function's errors alarm removed", without_alarm("Errors", first_function)),
    ("a function's throttles alarm removed", without_alarm("Throttles", first_function)),
    ("the stream's iterator age alarm removed", without_alarm("IteratorAge", stream_reader)),
    ("the API's 5xx alarm removed", without_alarm("5xx", lambda t: first(t, "AWS::Serverless::HttpApi"))),
    ("the sweeper's failure alarm removed", without_alarm("ApproximateNumberOfMessagesVisible", scheduled_queue)),
    ("a conditional function's alarm made unconditional",
     removing("Resources", lambda t: alarm_on(t, "Errors", {"Ref": conditional_function(t)}), "Condition")),
    ("an alarm tells no one", removing("Resources", lambda t: first(t, "AWS::CloudWatch::Alarm"), "Properties", "AlarmActions")),
    ("a new function without alarms", an_unwatched_function),
    ("tracing removed", removing("Globals", "Function", "Tracing")),
    ("access logs removed",
     removing("Resources", lambda t: first(t, "AWS::Serverless::HttpApi"), "Properties", "AccessLogSettings")),
    ("the access log lacks the status",
     setting(without_field("status"), "Resources", lambda t: first(t, "AWS::Serverless::HttpApi"),
             "Properties", "AccessLogSettings", "Format")),
    ("deletion protection removed",
     removing("Resources", lambda t: first(t, "AWS::DynamoDB::Table"), "Properties", "DeletionProtectionEnabled")),
    ("a log group not retained", removing("Resources", lambda t: first(t, "AWS::Logs::LogGroup"), "DeletionPolicy")),
    ("a queue not retained on replacement",
     removing("Resources", lambda t: first(t, "AWS::SQS::Queue"), "UpdateReplacePolicy")),
    ("the sweeper's reserved concurrency removed",
     removing("Resources", scheduled_function, "Properties", "ReservedConcurrentExecutions")),
    ("the sweeper's failed runs retried",
     setting(lambda retries: 2, "Resources", scheduled_function, "Properties", "EventInvokeConfig", "MaximumRetryAttempts")),
    ("the sweeper's failure destination removed",
     removing("Resources", scheduled_function, "Properties", "EventInvokeConfig", "DestinationConfig")),
    ("the WebSocket API's subscribe route removed", removing("Resources", lambda t: socket_route(t, "subscribe"))),
    ("the WebSocket API's ping runs a function",
     setting(lambda target: {"Fn::Sub": "integrations/${EventsSocketIntegration}"},
             "Resources", lambda t: socket_route(t, "ping"), "Properties", "Target")),
    ("the WebSocket API may not invoke the api function",
     removing("Resources", lambda t: first(t, "AWS::Lambda::Permission"))),
    ("the notifier may not post to connections",
     setting(lambda granted: [s for s in granted if "execute-api:ManageConnections" not in actions(s)],
             "Resources", "NotifierFunction", "Properties", "Policies", 1, "Statement")),
    ("a function may manage every API's connections",
     setting(lambda granted: [dict(s, Resource="*") if "execute-api:ManageConnections" in actions(s) else s
                              for s in granted],
             "Resources", "ApiFunction", "Properties", "Policies", 1, "Statement")),
    ("the notifier is not given the connections' endpoint",
     removing("Resources", "NotifierFunction", "Properties", "Environment", "Variables", "MISSIVE_SOCKET_ENDPOINT")),
    ("the api function's reserved concurrency removed",
     removing("Resources", "ApiFunction", "Properties", "ReservedConcurrentExecutions")),
    ("feed polls wait as long as they ask on Lambda",
     removing("Resources", "ApiFunction", "Properties", "Environment", "Variables", "MISSIVE_FEED_WAIT")),
    ("the WebSocket API's integration errors alarm removed", without_alarm("IntegrationError", socket_api)),
    ("the WebSocket access log lacks the connection id",
     setting(without_field("connectionId"), "Resources", lambda t: first(t, "AWS::ApiGatewayV2::Stage"),
             "Properties", "AccessLogSettings", "Format")),
    ("the VAPID key's parameter readable by no function",
     setting(lambda read: read[:1], "Resources", "SigningKeyAccess", "Properties", "PolicyDocument", "Statement", 0,
             "Resource")),
]


def socket_route(template, key):
    """The logical id of the WebSocket API's route `key`."""
    return next(
        name
        for name, resource in template["Resources"].items()
        if resource["Type"] == "AWS::ApiGatewayV2::Route" and resource["Properties"].get("RouteKey") == key
    )


def unnoticed_mutations(template, sources, operations):
    """The names of the MUTATIONS the checks do not notice (or that no longer apply to
    the template)."""
    unnoticed = []
    for name, mutate in MUTATIONS:
        mutated = copy.deepcopy(template)
        try:
            changed = mutate(mutated, sources, operations)
        except (KeyError, LookupError, StopIteration, TypeError) as error:
            unnoticed.append(f"{name} (does not apply: {error!r})")
            continue
        if not check_all(mutated, changed, operations):
            unnoticed.append(name)
    return unnoticed


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
    source = plain(template)
    operations = dynamodb_operations()
    if isinstance(operations, str):
        print(f"check-template.py: {operations}")
        return 1
    sources = store_sources()
    problems = check_all(source, sources, operations)
    for problem in problems:
        print(f"template.yaml: {problem}")
    if problems:
        return 1
    unnoticed = unnoticed_mutations(source, sources, operations)
    for name in unnoticed:
        print(f"check-template.py: the checks do not notice a mutation: {name}")
    if unnoticed:
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
    print(
        "template.yaml: table in sync, signing key, table rights (derived from the store), "
        "client calls, failure destinations, retention, tracing, access log, alarms, API "
        "limits, replies by mail, the WebSocket API and the api function's concurrency as "
        f"required; all {len(MUTATIONS)} mutations caught; "
        "SAM transform and cfn-lint clean"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
