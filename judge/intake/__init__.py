"""Mail intake: the ways a mail reaches the judge, all ending in one durable store.

- ``smtp``: an SMTP listener (aiosmtpd) that answers 250 only after the mail
  is committed, 451 when it cannot be, 552 when it is too large.
- ``imap``: a poller that reads a mailbox and marks a message seen only
  after it is committed.
- ``deliver``: for an MTA that pipes each mail into ``judge deliver``; its
  exit status tells the MTA to keep (75) or bounce (65) what was not stored.
- ``store``: the store itself; the same mail coming twice, by any of these
  ways, is one row.

The guarantee: a mail is either committed to the database or its sender
(MTA, mailbox) still holds it and will offer it again. Processing reads the
stored rows (``pending_ids``) and is someone else's job.
"""

from judge.intake.store import fingerprint, pending_ids, store_inbound

__all__ = ["fingerprint", "pending_ids", "store_inbound"]
