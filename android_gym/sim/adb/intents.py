"""What `am start -a ACTION -d URI` opens on the sim: the default app for a data URI, as Android's resolver picks it.

`VIEW` of a web address opens the browser on that page; of `content://com.android.calendar...` the calendar,
`content://contacts/...` or `content://com.android.contacts/...` the contacts, `content://media/.../images/...` the
photos, `mailto:` the mail app, `geo:` the maps, `tel:` the Phone app. `CALL tel:N` places the call (the in-call
screen), `DIAL tel:N` opens the Phone app. Anything else is refused as `am` refuses an intent nothing handles (on
stderr, exit status 0).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from android_gym.sim.adb.coreutils import Out, err, ok
from android_gym.sim.apps.browser import Browser
from android_gym.sim.apps.calendar import PACKAGE as CALENDAR
from android_gym.sim.apps.contacts import PACKAGE as CONTACTS
from android_gym.sim.apps.dialer import PACKAGE as DIALER
from android_gym.sim.apps.dialer import DialerApp
from android_gym.sim.apps.gallery import PACKAGE as PHOTOS
from android_gym.sim.apps.gmail import PACKAGE as GMAIL
from android_gym.sim.apps.maps import PACKAGE as MAPS

if TYPE_CHECKING:
    from android_gym.sim.adb.program_target import ProgramTarget

VIEW, CALL, DIAL = "android.intent.action.VIEW", "android.intent.action.CALL", "android.intent.action.DIAL"
VIEW_PREFIXES = (
    ("content://com.android.calendar", CALENDAR), ("content://contacts/", CONTACTS),
    ("content://com.android.contacts/", CONTACTS), ("content://media/external/images/", PHOTOS),
    ("content://media/internal/images/", PHOTOS), ("mailto:", GMAIL), ("geo:", MAPS), ("tel:", DIALER),
)
"""URI prefix -> the package that views it."""


def start_data_intent(t: ProgramTarget, action: str, data: str) -> Out:
    """`am start -a ACTION -d DATA` without a component: open the app that handles it."""
    started = ok(f"Starting: Intent {{ act={action} dat={data} }}\n")
    if action == VIEW and data.startswith(("http://", "https://")):
        browser = next((app for app in t.phone.installed() if isinstance(app, Browser)), None)
        if browser is not None:
            t.phone.open(browser.package, browser.page(data))
            return started
    elif action == VIEW:
        package = next((p for prefix, p in VIEW_PREFIXES if data.startswith(prefix)), None)
        if package is not None and package in t.phone.apps:
            t.phone.launch(package)
            return started
    elif action in (CALL, DIAL) and data.startswith("tel:") and isinstance(dialer := t.phone.apps.get(DIALER),
                                                                           DialerApp):
        t.phone.launch(DIALER)
        if action == DIAL or dialer.place_call(data[len("tel:"):]):
            return started
        return err(f"Error: the call to {data} was not placed (a call is in progress, or no digits)", 0)
    return err(f"Error: Activity not started, unable to resolve Intent {{ act={action} dat={data} "
               "flg=0x10000000 }", 0)
