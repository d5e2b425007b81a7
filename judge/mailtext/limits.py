"""Limits on what the judge reads of a mail, and MIME types that mark a report."""

from __future__ import annotations

MAX_SUBJECT_CHARS = 200
MAX_NAME_CHARS = 200
MAX_ADDRESS_CHARS = 254
_MAX_HEADER_CHARS = 8192
_MAX_DEPTH = 20
_MAX_PARTS = 500
_REPORT_TYPES = {"message/delivery-status", "message/disposition-notification"}
