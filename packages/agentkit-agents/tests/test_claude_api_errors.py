"""claude's own API-failure names map into the kit's codes; the raw name stays in details.

The names below are the ones claude 2.1.337 declares (its ``api_error``
enumeration and its assistant ``error`` enumeration, read from the binary);
a release that adds one shows up as a failure of the pin here, and
``docs/cli/errors.md`` lists the same table.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from agentkit.agents.cognition import ClaudeCliCognition
from agentkit.agents.cognition.claude._turn import ClaudeTurn
from agentkit.agents.cognition.claude.api_errors import API_ERROR_CODES, ASSISTANT_ERROR_CODES
from agentkit.agents.cognition.errors import ERROR_CODES, CliError
from agentkit.core.runtime import RunContext
from agentkit.fakes.cli import FakeClaudeCli
from tests.support.cli import recording

ROOT = Path(__file__).resolve().parents[3]

API_ERROR_NAMES_2_1_337 = {
    "max_output_tokens", "dlp_request_denied", "claude_code_version_too_old",
    "safety_monitor_blocked", "hook_denied", "effort_requires_thinking", "advisor_incompatible",
    "tool_history_mismatch", "autocompact_thrashing", "pdf_too_large", "pdf_password_protected",
    "stored_login_refused", "oauth_refresh_store_refused", "media_removed", "no_response",
    "tls_untrusted_ca", "tls_cert_signature_failure", "client_certificate", "tls_cert_invalid",
    "gateway_content_type", "connection_failed", "request_timeout", "stream_idle_timeout",
    "computer_slept", "provider_credentials", "gateway_signin_required",
    "gateway_session_expired", "api_key_auth_disabled", "org_disabled_credential",
    "invalid_credential_header", "model_requires_usage_credits", "long_context_credits_required",
    "consent_unanswered", "no_allowed_fallback", "model_substitution_disabled",
    "field_not_granted", "usage_limit_reached", "empty_completion",
    "malformed_tool_use_exhausted", "unattended_start_limit", "unattended_start_unconfirmed",
    "message_over_context_limit", "network_edge_blocked", "named_profile_unusable",
    "unexpected_response", "prompt_too_long", "request_too_large", "no_credential",
    "token_revoked", "login_replaces_organization_sign_in", "check_refused_on_route",
}  # fmt: skip
ASSISTANT_ERROR_NAMES_2_1_337 = {
    "authentication_failed", "oauth_org_not_allowed", "account_on_hold",
    "verification_required", "billing_error", "rate_limit", "overloaded", "invalid_request",
    "model_not_found", "server_error", "unknown", "max_output_tokens", "cloud_credential_error",
}  # fmt: skip


def test_every_api_error_name_of_the_newest_claude_has_a_code() -> None:
    assert set(API_ERROR_CODES) == API_ERROR_NAMES_2_1_337
    assert set(ASSISTANT_ERROR_CODES) == ASSISTANT_ERROR_NAMES_2_1_337 - {"unknown"}
    assert set(API_ERROR_CODES.values()) <= ERROR_CODES
    assert set(ASSISTANT_ERROR_CODES.values()) <= ERROR_CODES


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("no_credential", "authentication_failed"),
        ("token_revoked", "authentication_failed"),
        ("usage_limit_reached", "rate_limit"),
        ("request_too_large", "request_too_large"),
        ("prompt_too_long", "prompt_too_long"),
        ("connection_failed", "connection_failed"),
        ("model_requires_usage_credits", "billing_error"),
        ("tool_history_mismatch", "invalid_request"),
    ],
)
def test_some_names_and_their_codes(name: str, code: str) -> None:
    assert API_ERROR_CODES[name] == code


def _doc_table(heading: str) -> dict[str, str]:
    text = (ROOT / "docs" / "cli" / "errors.md").read_text()
    section = text.split(heading, 1)[1].split("\n## ", 1)[0]
    table: dict[str, str] = {}
    for line in section.splitlines():
        match = re.fullmatch(r"\| `([a-z0-9_]+)` \| `([a-z_]+)` \|.*", line.strip())
        if match:
            table[match.group(1)] = match.group(2)
    return table


def test_the_docs_list_the_same_mapping() -> None:
    assert _doc_table("## claude's api_error names") == dict(API_ERROR_CODES)
    assert _doc_table("## claude's assistant error names") == dict(ASSISTANT_ERROR_CODES)


def _reported(*objects: Mapping[str, Any]) -> CliError:
    """The error the turn of ``objects`` reports (it must report one)."""
    turn = ClaudeTurn()
    for number, obj in enumerate(objects, 1):
        assert turn.feed(obj, number) is not None
    error = turn.reported_error()
    assert error is not None
    return error


def _failed_result(**fields: Any) -> dict[str, Any]:
    return {
        "type": "result",
        "subtype": "success",
        "is_error": True,
        "result": "API Error",
        "session_id": "s",
        "terminal_reason": "api_error",
        **fields,
    }


def test_the_api_error_name_decides_and_stays_in_details() -> None:
    error = _reported(_failed_result(api_error="no_credential"))
    assert (error.code, error.kind) == ("authentication_failed", "authentication_failed")
    assert error.details["api_error"] == "no_credential"


def test_an_unknown_name_falls_back_to_the_status_then_the_assistant_error() -> None:
    error = _reported(_failed_result(api_error="brand_new_kind", api_error_status=529))
    assert error.code == "overloaded"
    assert error.details["api_error"] == "brand_new_kind"
    synthetic = {
        "type": "assistant",
        "message": {"id": "m", "content": [{"type": "text", "text": "x"}]},
        "error": "rate_limit",
        "is_api_error_message": True,
    }
    error = _reported(synthetic, _failed_result(api_error="brand_new_kind"))
    assert error.code == "rate_limit"
    assert error.details["assistant_error"] == "rate_limit"
    assert _reported(_failed_result(api_error="brand_new_kind")).code == "api_error"


def test_a_route_refusal_is_a_connection_failure_and_keeps_claudes_guess() -> None:
    result = _failed_result(
        api_error="check_refused_on_route",
        api_error_status=403,
        auto_mode_check_block="refused_on_route",
    )
    error = _reported(result)
    assert error.code == "connection_failed"
    assert error.details["api_error"] == "check_refused_on_route"
    assert error.details["auto_mode_check_block"] == "refused_on_route"


def test_a_prompt_too_long_terminal_reason_names_the_code() -> None:
    error = _reported(_failed_result(terminal_reason="prompt_too_long"))
    assert error.code == "prompt_too_long"


def test_an_unknown_resume_id_keeps_the_startup_failure_reason() -> None:
    result = _failed_result(
        subtype="error_during_execution",
        errors=["No conversation found with session ID: x"],
        startup_failure_reason="session_not_found",
    )
    error = _reported(result)
    assert error.code == "error_during_execution"
    assert error.details["startup_failure_reason"] == "session_not_found"


@pytest.mark.parametrize("version", ["2.1.332", "2.1.336"])
async def test_not_logged_in_reads_the_same_on_both_releases(version: str) -> None:
    stem = f"claude-{version}-not-logged-in"
    run = recording("claude", stem).run
    stdout = run.stdout
    result = await ClaudeCliCognition(FakeClaudeCli([run]), timeout=10).drive(
        RunContext(), "Reply with: pong"
    )
    error = result.error
    assert error is not None
    assert error.code == "authentication_failed"
    assert error.message == "Not logged in \u00b7 Please run /login"
    assert error.returncode == 1
    lines = [json.loads(line) for line in stdout.decode().splitlines()]
    assert error.details["api_error"] == lines[-1].get("api_error")
