"""claude's own names for an API failure, mapped into the kit's error vocabulary.

claude names a failed call twice: ``error`` on its synthetic assistant
message (a short closed list: ``authentication_failed``, ``rate_limit``,
``overloaded``...) and ``api_error`` on that message and on the ``result``
(a long and growing list: ``no_credential``, ``token_revoked``,
``prompt_too_long``, ``connection_failed``...; 41 names in 2.1.332, 50 in
2.1.336). Passing either through as the code would make a caller's branch
depend on the CLI release: "Not logged in" was ``authentication_failed``
under 2.1.332 and would be ``no_credential`` under 2.1.336. So both lists
map here into the codes of :data:`~agentkit.agents.cognition.errors.ErrorCode`
(the table is ``docs/cli/errors.md``); the raw names stay in the error's
``details`` (``api_error``, ``assistant_error``).

A name this table does not know (a newer release) is not guessed at: the
code then comes from the other name, the HTTP status or the text, as for an
older CLI that names nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from agentkit.agents.cognition.errors import ErrorCode

__all__ = [
    "API_ERROR_CODES",
    "ASSISTANT_ERROR_CODES",
    "TERMINAL_REASON_CODES",
    "api_error_code",
    "assistant_error_code",
]

_CREDENTIALS: tuple[str, ...] = (
    "no_credential",
    "token_revoked",
    "invalid_credential_header",
    "api_key_auth_disabled",
    "org_disabled_credential",
    "provider_credentials",
    "gateway_signin_required",
    "gateway_session_expired",
    "stored_login_refused",
    "oauth_refresh_store_refused",
    "named_profile_unusable",
    "login_replaces_organization_sign_in",
)
_BILLING: tuple[str, ...] = ("model_requires_usage_credits", "long_context_credits_required")
_RATE: tuple[str, ...] = ("usage_limit_reached",)
_REQUEST_TOO_LARGE: tuple[str, ...] = ("request_too_large", "pdf_too_large")
_PROMPT_TOO_LONG: tuple[str, ...] = (
    "prompt_too_long",
    "message_over_context_limit",
    "autocompact_thrashing",
)
_CONNECTION: tuple[str, ...] = (
    "connection_failed",
    "no_response",
    "request_timeout",
    "stream_idle_timeout",
    "computer_slept",
    "tls_untrusted_ca",
    "tls_cert_signature_failure",
    "tls_cert_invalid",
    "client_certificate",
    "network_edge_blocked",
    "gateway_content_type",
    # A self-hosted runner's network refused a request that carried auto
    # mode's server-side check (claude's own guess; try again, fix the route).
    "check_refused_on_route",
)
_SERVER: tuple[str, ...] = (
    "unexpected_response",
    "empty_completion",
    "malformed_tool_use_exhausted",
)
_REQUEST: tuple[str, ...] = (
    "tool_history_mismatch",
    "effort_requires_thinking",
    "advisor_incompatible",
    "pdf_password_protected",
    "media_removed",
    "hook_denied",
    "dlp_request_denied",
    "safety_monitor_blocked",
    "claude_code_version_too_old",
    "model_substitution_disabled",
    "no_allowed_fallback",
    "consent_unanswered",
    "unattended_start_limit",
    "unattended_start_unconfirmed",
    "field_not_granted",
)


def _table(*groups: tuple[tuple[str, ...], ErrorCode]) -> Mapping[str, ErrorCode]:
    table: dict[str, ErrorCode] = {}
    for names, code in groups:
        for name in names:
            table[name] = code
    return MappingProxyType(table)


API_ERROR_CODES: Final[Mapping[str, ErrorCode]] = _table(
    (_CREDENTIALS, "authentication_failed"),
    (_BILLING, "billing_error"),
    (_RATE, "rate_limit"),
    (_REQUEST_TOO_LARGE, "request_too_large"),
    (_PROMPT_TOO_LONG, "prompt_too_long"),
    (("max_output_tokens",), "max_output_tokens"),
    (_CONNECTION, "connection_failed"),
    (_SERVER, "server_error"),
    (_REQUEST, "invalid_request"),
)
"""claude's ``api_error`` names (2.1.337 knows 51) -> the kit's code."""

ASSISTANT_ERROR_CODES: Final[Mapping[str, ErrorCode]] = _table(
    (
        (
            "authentication_failed",
            "oauth_org_not_allowed",
            "account_on_hold",
            "verification_required",
            "cloud_credential_error",
        ),
        "authentication_failed",
    ),
    (("billing_error",), "billing_error"),
    (("rate_limit",), "rate_limit"),
    (("overloaded",), "overloaded"),
    (("invalid_request", "model_not_found"), "invalid_request"),
    (("server_error",), "server_error"),
    (("max_output_tokens",), "max_output_tokens"),
)
"""claude's assistant-message ``error`` names -> the kit's code (``unknown`` is left out)."""

TERMINAL_REASON_CODES: Final[Mapping[str, ErrorCode]] = _table(
    (("prompt_too_long", "blocking_limit"), "prompt_too_long"),
)
"""``result.terminal_reason`` values that say what failed when nothing else does."""


def api_error_code(api_error: str | None) -> ErrorCode | None:
    """The kit's code for claude's ``api_error`` name (None: no name, or one not in the table)."""
    return API_ERROR_CODES.get(api_error) if api_error is not None else None


def assistant_error_code(error: str | None) -> ErrorCode | None:
    """The kit's code for the assistant message's ``error`` name (None: unknown or absent)."""
    return ASSISTANT_ERROR_CODES.get(error) if error is not None else None
