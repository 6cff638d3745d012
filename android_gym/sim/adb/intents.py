"""What `am start -a ACTION -d URI` does on the sim: the intent goes to the phone, whose apps' own intent filters
resolve it as Android's resolver does (`SimPhone.send_intent`); this module only speaks `am`'s output.

What handles what is each app's declaration (`App.intent_filters`): a web address opens the browser on that page,
`content://com.android.calendar...` the calendar, `mailto:` the mail app, `geo:` the maps, `tel:` the Phone app, and
`CALL tel:N` places the call. An intent nothing handles is refused as `am` refuses it (on stderr, exit status 0).
"""  # noqa: D205, D209

from __future__ import annotations

from typing import TYPE_CHECKING

from android_gym.sim.adb.coreutils import Out, err, ok
from android_gym.sim.app import Intent

if TYPE_CHECKING:
    from android_gym.sim.adb.program_target import ProgramTarget


def start_data_intent(t: ProgramTarget, action: str, data: str) -> Out:
    """`am start -a ACTION -d DATA` without a component: hand the intent to the app that handles it."""
    done = t.phone.send_intent(Intent(action, data))
    if done is None:
        return err(f"Error: Activity not started, unable to resolve Intent {{ act={action} dat={data} "
                   "flg=0x10000000 }", 0)
    if not done:
        return err(f"Error: the call to {data} was not placed (a call is in progress, or no digits)", 0)
    return ok(f"Starting: Intent {{ act={action} dat={data} }}\n")
