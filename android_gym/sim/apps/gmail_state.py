"""The Gmail app's typed seam: the schema of its state (`GmailState`) and the model of its initial conditions.

Tasks read the app's state as `GmailState` (each email an `Email`, each saved draft a `Draft`) and set initial
conditions as `GmailInitial` (issue 48). The views, events and live state are
`android_gym.sim.apps.gmail.GmailApp`'s, which imports these names (so `gmail.GmailState` and the rest keep working).
"""

from __future__ import annotations

from typing import Literal

from typing_extensions import TypedDict

from android_gym.config_model import ConfigModel
from android_gym.sim.app_state import closed

Folder = Literal["inbox", "promotions", "sent", "all", "trash"]
GmailScreen = Literal["inbox", "promotions", "sent", "all", "trash", "drawer", "email", "compose", "alert", "search",
                      "results"]
MailKind = Literal["received", "new", "reply", "forward"]


@closed
class Email(TypedDict):
    """An email as tasks see it: its id, sender ("Me" on sent mail), recipients, text, time label, whether it is
    unread, how it came ("received", or the compose screen that sent it) and the email it replies to or forwards."""  # noqa: D205, D209

    id: int
    sender: str
    email: str
    to: list[str]
    subject: str
    body: str
    time: str
    unread: bool
    kind: MailKind
    ref: int | None


@closed
class Draft(TypedDict):
    """A draft saved by leaving a compose screen the user wrote in: its "To" text, subject and body as typed."""

    to: str
    subject: str
    body: str


@closed
class GmailState(TypedDict):
    """What the Gmail app reports (`GmailApp.state`).

    Attributes:
        inbox, archived, deleted, sent: the mail of each box, newest first.
        screen: the front Gmail screen's name, None when Gmail has no screen on the stack.
        folder: the folder that screen lists (or lies over, or was opened from), else None.
        open: the id of the email on the front "email" screen, else None.
        query: the search of a front "results" screen, else None.
        drafts: the drafts saved this episode, in order.
        promotions: the ids of the mail in the Promotions category (wherever it is now), ascending.
    """

    inbox: list[Email]
    archived: list[Email]
    deleted: list[Email]
    sent: list[Email]
    screen: GmailScreen | None
    folder: Folder | None
    open: int | None
    query: str | None
    drafts: list[Draft]
    promotions: list[int]


class EmailSpec(ConfigModel):
    """A received email a task puts in the inbox.

    Attributes:
        sender: the sender's name.
        email: the sender's address.
        subject, body: its text.
        unread: whether it is unread.
    """

    sender: str
    email: str
    subject: str
    body: str
    unread: bool


class MailContactSpec(ConfigModel):
    """Someone the "To" field suggests besides the phone's contacts and the inbox's senders.

    Attributes:
        name: their name.
        email: their address.
    """

    name: str
    email: str


class GmailInitial(ConfigModel):
    """The initial conditions a Gmail task may set.

    Attributes:
        emails: received mail placed in the inbox among the seeded mail, at positions drawn from the episode seed.
        promotions: received mail placed the same way, in the Promotions category (listed under "Promotions", not
            in the Primary inbox).
        contacts: people the "To" field suggests besides the phone's contacts and the inbox's senders.
    """

    emails: tuple[EmailSpec, ...] = ()
    promotions: tuple[EmailSpec, ...] = ()
    contacts: tuple[MailContactSpec, ...] = ()
