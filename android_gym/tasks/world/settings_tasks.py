"""World-suite tasks over Settings (issue 17): get ready for a flight, set two volumes, deny an app's camera and
microphone, clear two apps' caches, forget a Bluetooth device, set the screen timeout and dark theme; read an app's
storage (an answer); forget a device that was never paired (infeasible); allow the camera in Settings then take a
photo (with Camera), and text someone the connected device's name (with Messages).

Per-episode variety comes from Settings' own seeded data (volumes, saved devices and their order, every app's
permissions and sizes), which tasks only pin where they must (`initial`). Checks read the final values and Settings'
edit log (`state()["edits"]`), so an extra edit (another app's cache, a third permission, the wrong device) fails.
Splits hold out the key parameter (`split_of`). Experts walk Settings by page ids from its state and rows by their
titles (`to_page`), get past pop-ups (`into_app`) and retry dropped taps by acting on the unchanged screen again.
"""  # noqa: D205, D209

from __future__ import annotations

from typing import Any

from android_gym.actions import Action, ActionType
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import camera, playstore
from android_gym.sim.apps import messages as M
from android_gym.sim.apps import settings as S
from android_gym.tasks.apps import into_app, swipe_down
from android_gym.tasks.expert import back, find, obstacle, swipe_up, tap, wait
from android_gym.tasks.world.base import Elements, Params, State, WorldTemplate
from android_gym.tasks.world.infeasible_tasks import impossible
from android_gym.tasks.world.media_expert import shoot
from android_gym.tasks.world.messaging_expert import conversation, names, namesake, person, send_text, texts_ok

SETTINGS, CAMERA = S.PACKAGE, camera.PACKAGE

ROUTE: dict[str, tuple[str, str]] = {
    "network": ("main", "Network & internet"), "connected": ("main", "Connected devices"),
    "connection_prefs": ("connected", "Connection preferences"), "bluetooth": ("connection_prefs", "Bluetooth"),
    "sound": ("main", "Sound & vibration"), "dnd": ("sound", "Do Not Disturb"), "display": ("main", "Display"),
    "apps": ("main", "Apps"), S.ALL_APPS: ("apps", "See all apps"), S.APP_INFO: (S.ALL_APPS, "{app}"),
    S.APP_PERMISSIONS_PAGE: (S.APP_INFO, "Permissions"), S.PERMISSION: (S.APP_PERMISSIONS_PAGE, "{perm}"),
    S.APP_STORAGE: (S.APP_INFO, "Storage & cache"), S.SAVED_DEVICES: ("connected", "Saved devices"),
    S.DEVICE: (S.SAVED_DEVICES, "{device}"), "brightness": ("display", "Brightness level"),
    "font_size": ("display", "Font size"), "storage": ("main", "Storage"), "wallpaper": ("main", "Wallpaper & style"),
}
"""Settings page id -> (the page it is opened from, the title of the row there that opens it)."""
ARGS = {S.APP_INFO: ("app",), S.APP_PERMISSIONS_PAGE: ("app",), S.APP_STORAGE: ("app",), S.PERMISSION: ("app", "perm"),
        S.DEVICE: ("device",)}
"""The arguments a page is about (the state's "app", "perm", "device" of the front screen)."""
SWITCHES = ("wifi", "bluetooth", "airplane_mode", "dark_theme", "battery_saver", "do_not_disturb", "location",
            "auto_rotate")
FLIGHT = (("airplane_mode", True, "network", "Airplane mode"), ("bluetooth", False, "bluetooth", "Use Bluetooth"),
          ("do_not_disturb", True, "dnd", "Use Do Not Disturb"))
"""Getting ready for a flight: (system key, wanted, its page, its switch's label), in the expert's order."""
CAM_MIC_APPS = tuple(a for a, p in S.APP_PERMISSIONS.items() if "Camera" in p and "Microphone" in p)
CACHE_APPS = ("Chrome", "YouTube", "Maps", "Gmail", "Photos", "Messages", "Calendar", "Contacts", "Clock", "Files",
              "Play Store", "Markor", "Tasks", "Camera", "YT Music", "Audio Recorder", "Broccoli", "Pro Expense",
              "Calculator", "Phone")
"""Apps on every phone (the store's are installed first by the tasks that name them)."""
MISSING = {"AirPods Pro": "Pixel Buds Pro", "JBL Charge 4": "JBL Flip 5", "Car Kit": "Car Audio",
           "Bose QC35": "Bose QC45", "Galaxy Watch5": "Galaxy Watch6", "Sony WH-1000XM5": "Sony WH-1000XM4",
           "Fitbit Sense 2": "Fitbit Charge 6", "Living Room Speaker": "Kitchen Speaker",
           "Jabra Elite 75t": "Jabra Elite 85t", "Beats Solo3": "Beats Studio3", "Galaxy Buds2": "Pixel Buds Pro",
           "Echo Dot": "Kitchen Speaker", "Pixel Buds A-Series": "Pixel Buds Pro", "JBL Go 3": "JBL Flip 5",
           "Car Multimedia": "Car Audio", "Bose SoundLink Flex": "Bose QC45", "Apple Watch": "Galaxy Watch6",
           "Sony WF-1000XM4": "Sony WH-1000XM4", "Fitbit Versa 4": "Fitbit Charge 6", "Bedroom Speaker":
           "Kitchen Speaker", "Jabra Evolve2": "Jabra Elite 85t", "Beats Fit Pro": "Beats Studio3"}
"""A device never paired -> the paired device that looks like it (the near miss)."""


def settings_of(state: State) -> S.SettingsState:
    """Settings' part of the state (`SettingsState`)."""
    return state_of(state, S.SettingsState)


def edits(state: State, *ops: str) -> list[S.SettingsEdit]:
    """Settings' edits this episode of the kinds `ops` (every edit when none is given)."""
    return [e for e in settings_of(state)["edits"] if not ops or e["op"] in ops]


def _installed(app: str) -> dict[str, dict[str, Any]]:
    return {playstore.PACKAGE: {"installed": [app]}} if app in playstore.BRAND_APPS else {}


# -- expert steps ------------------------------------------------------------------------------------------------------
def route(page: str) -> list[str]:
    """The page ids from the main list to `page`."""
    out = [page]
    while out[-1] in ROUTE:
        out.append(ROUTE[out[-1]][0])
    return out[::-1]


def reach_row(label: str, elements: Elements, state: State) -> Action:
    """Tap the row titled `label`, or scroll towards it (All apps is alphabetical; other pages fit in two screens)."""
    row = find(elements, text=label, rid=S.ROW_TITLE_RID)
    if row is not None:
        return tap(row)
    if settings_of(state)["page"] == S.ALL_APPS:
        shown = [e.text for e in elements if e.rid == S.ROW_TITLE_RID and e.text]
        return swipe_down() if shown and label.lower() < shown[0].lower() else swipe_up()
    return swipe_up() if state["screen"]["scroll"] == 0 else swipe_down()


def to_page(page: str, elements: Elements, state: State, **args: str) -> Action | None:
    """The next step to Settings' `page` about `args` (app, perm, device) in front; None once there.

    A page off the route, a dialog or the search page is left with BACK.
    """
    step = into_app("Settings", SETTINGS, elements, state)
    if step is not None:
        return step
    s = settings_of(state)
    path = route(page)
    where = s["page"]
    if where not in path or any(s[k] != args[k] for k in ARGS.get(where, ())):
        return back()
    if where == page:
        return None
    return reach_row(ROUTE[path[path.index(where) + 1]][1].format(**args), elements, state)


def press(elements: Elements, **criteria: Any) -> Action:
    """Tap the first element matching `criteria`; wait a step when none is shown."""
    e = find(elements, **criteria)
    return tap(e) if e is not None else wait()


def set_switch(key: str, want: bool, page: str, label: str, elements: Elements, state: State) -> Action | None:
    """The next step to system switch `key` at `want` (on `page`, row `label`); None once it is."""
    if state["system"][key] == want:
        return None
    step = to_page(page, elements, state)
    if step is not None:
        return step
    row = find(elements, text=label)
    return tap(row) if row is not None else swipe_up()


def set_volume(key: str, value: int, elements: Elements, state: State) -> Action | None:
    """The next step to volume `key` at `value`%: the Sound page, then the bar's tap zone; None once set."""
    if settings_of(state)["volumes"][key] == value:
        return None
    step = to_page("sound", elements, state)
    if step is not None:
        return step
    bar = find(elements, desc=S.VOLUMES[key], cls="android.widget.SeekBar")
    if bar is None:
        return swipe_up()
    zone = next((e for e in elements if e.desc == f"{value}%" and bar.bounds[1] <= e.center[1] < bar.bounds[3]), None)
    return tap(zone) if zone is not None else wait()


def permit(app: str, perm: str, value: str, elements: Elements, state: State) -> Action | None:
    """The next step to `app`'s `perm` at `value` (its permission page, then the radio button); None once it is."""
    if settings_of(state)["apps"][app]["permissions"][perm] == value:
        return None
    return to_page(S.PERMISSION, elements, state, app=app, perm=perm) or press(elements, text=value)


def answer(text: str) -> Action:
    """Declare the task complete with `text`."""
    return Action(ActionType.STATUS_TASK_COMPLETE, text=text)


# -- templates ---------------------------------------------------------------------------------------------------------
class FlightModeTemplate(WorldTemplate):
    """Get ready for a flight: airplane mode on, Bluetooth off, Do Not Disturb on; every other switch untouched."""

    name, max_steps, split_key = "settings_flight_mode", 23, "key"
    apps = (SETTINGS,)
    phrasings = ("Get my phone ready for a flight: turn on airplane mode, turn off Bluetooth and turn on Do Not "
                 "Disturb",
                 "I'm boarding a plane. Enable airplane mode, disable Bluetooth and switch on Do Not Disturb",
                 "In Settings, switch airplane mode on, Bluetooth off and Do Not Disturb on")

    def grid(self) -> list[dict[str, Any]]:
        """Forty starting positions of the other switches, each with a phrasing."""
        return [{"key": f"flight-{v}", "variant": v, "phrasing": v} for v in range(40)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The three switches the wrong way; the other five set by the variant's bits."""
        others = [k for k in SWITCHES if k not in {f[0] for f in FLIGHT}]
        system = {k: bool(params["variant"] >> i & 1) for i, k in enumerate(others)}
        return {"system": {**system, **{k: not want for k, want, *_ in FLIGHT}}}

    def check(self, params: Params, state: State) -> bool:
        """The three switches as asked, the others as they started."""
        start = self.initial(params)["system"]
        wanted = {k: want for k, want, *_ in FLIGHT}
        return all(state["system"][k] == wanted.get(k, v) for k, v in start.items())

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Airplane mode (Network & internet), Bluetooth (Connected devices > ... > Bluetooth), then Do Not Disturb."""
        for key, want, page, label in FLIGHT:
            step = set_switch(key, want, page, label, elements, state)
            if step is not None:
                return step
        return wait()


class VolumesTemplate(WorldTemplate):
    """Set the media volume to {media}% and the ring volume to {ring}%; no other volume moves."""

    name, max_steps, split_key = "settings_volumes", 9, "key"
    apps = (SETTINGS,)
    phrasings = ("Set the media volume to {media}% and the ring volume to {ring}%",
                 "In Settings, change media volume to {media} percent and ring volume to {ring} percent",
                 "Make the ring volume {ring}% and the media volume {media}%")

    def grid(self) -> list[dict[str, Any]]:
        """Every pair of tenths."""
        return [{"key": f"{m}/{r}", "media": m, "ring": r, "phrasing": m // 10 + r // 10}
                for m in range(0, 101, 10) for r in range(0, 101, 10)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Both volumes away from their targets."""
        shift = 10 * (3 + params["phrasing"] % 6)
        return {SETTINGS: {"volumes": {"media": (params["media"] + shift) % 110,
                                       "ring": (params["ring"] + 110 - shift) % 110}}}

    def check(self, params: Params, state: State) -> bool:
        """Both volumes as asked; no other volume was changed."""
        s = settings_of(state)
        moved = {e["key"] for e in edits(state, "volume")}
        return (s["volumes"]["media"], s["volumes"]["ring"]) == (params["media"], params["ring"]) and moved <= {
            "media", "ring"}

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Sound & vibration, then the two bars' tap zones."""
        return (set_volume("media", params["media"], elements, state)
                or set_volume("ring", params["ring"], elements, state) or wait())


class DenyCameraMicTemplate(WorldTemplate):
    """Deny {app} the camera and the microphone: both at "Don't allow", no other permission changed."""

    name, max_steps, split_key = "settings_deny_camera_mic", 20, "key"
    apps = (SETTINGS,)
    phrasings = ("Deny {app} access to the camera and the microphone",
                 "Turn off the Camera and Microphone permissions for {app}",
                 "In Settings, don't allow {app} to use the camera or microphone")

    def grid(self) -> list[dict[str, Any]]:
        """Every app that asks for both, four times (the starting states vary)."""
        return [{"key": f"{a}/{v}", "app": a, "variant": v, "phrasing": i + v}
                for i, a in enumerate(CAM_MIC_APPS) for v in range(4)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Both allowed or asked (by the variant); a store app installed first."""
        start = ("Allow", "Ask every time")
        cam, mic = start[params["variant"] % 2], start[params["variant"] // 2]
        return {**_installed(params["app"]),
                SETTINGS: {"permissions": {params["app"]: {"Camera": cam, "Microphone": mic}}}}

    def check(self, params: Params, state: State) -> bool:
        """Both denied; the only permission edits are those two of the app."""
        app = settings_of(state)["apps"].get(params["app"])  # None: the app is not on the phone
        perms = app["permissions"] if app is not None else {}
        touched = {(e["app"], e["perm"]) for e in edits(state, "permission")}
        return (perms.get("Camera") == perms.get("Microphone") == "Don't allow"
                and touched <= {(params["app"], "Camera"), (params["app"], "Microphone")})

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Apps > See all apps > the app > Permissions > Camera > Don't allow; back; Microphone > Don't allow."""
        return (permit(params["app"], "Camera", "Don't allow", elements, state)
                or permit(params["app"], "Microphone", "Don't allow", elements, state) or wait())


class ClearCachesTemplate(WorldTemplate):
    """Clear the cache of {app} and of {other}: both caches empty, nothing else cleared or stopped."""

    name, max_steps, split_key = "settings_clear_caches", 24, "app"
    apps = (SETTINGS,)
    phrasings = ("Clear the cache of {app} and {other}", "Free up space: clear {app}'s and {other}'s cached data",
                 "In Settings, empty the app cache for both {app} and {other}")

    def grid(self) -> list[dict[str, Any]]:
        """Every app, each with two partners."""
        n = len(CACHE_APPS)
        return [{"app": a, "other": CACHE_APPS[(i + k) % n], "phrasing": i + k}
                for i, a in enumerate(CACHE_APPS) for k in (3, 8)]

    def check(self, params: Params, state: State) -> bool:
        """Both caches at 0 and the edits are exactly their Clear cache."""
        apps = settings_of(state)["apps"]
        done = {(e["op"], e.get("app")) for e in edits(state)}
        return (all(apps[a]["storage"]["cache"] == 0 for a in (params["app"], params["other"]))
                and done == {("clear_cache", params["app"]), ("clear_cache", params["other"])})

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """For each app: its Storage & cache page, Clear cache."""
        for app in (params["app"], params["other"]):
            if settings_of(state)["apps"][app]["storage"]["cache"]:
                return to_page(S.APP_STORAGE, elements, state, app=app) or press(elements, text="Clear cache")
        return wait()


class ForgetDeviceTemplate(WorldTemplate):
    """Forget the Bluetooth device {device}: it, and only it, is no longer saved."""

    name, max_steps, split_key = "settings_forget_device", 12, "device"
    apps = (SETTINGS,)
    phrasings = ("Forget the Bluetooth device {device}", "Unpair {device} from my phone",
                 "Remove {device} from the saved Bluetooth devices")

    def grid(self) -> list[dict[str, Any]]:
        """Every device name, three phrasings each."""
        return [{"device": d, "phrasing": i + k} for i, d in enumerate(S.DEVICE_NAMES) for k in range(3)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The device saved among the seeded ones (connected or not, as the seed has it)."""
        return {SETTINGS: {"devices": [params["device"]]}}

    def check(self, params: Params, state: State) -> bool:
        """The device is gone and the only Bluetooth edit is forgetting it."""
        gone = all(d["name"] != params["device"] for d in settings_of(state)["devices"])
        return gone and edits(state, "forget", "connect", "disconnect") == [{"op": "forget",
                                                                              "device": params["device"]}]

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Connected devices > Saved devices > the device > Forget > Forget device."""
        step = obstacle(elements, state)
        if step is not None or settings_of(state)["page"] == "forget":
            return step or press(elements, text="Forget device")
        if all(d["name"] != params["device"] for d in settings_of(state)["devices"]):
            return wait()
        return to_page(S.DEVICE, elements, state, device=params["device"]) or press(elements, text="Forget")


class TimeoutThemeTemplate(WorldTemplate):
    """Set the screen timeout to {timeout} and turn dark theme {on|off}.

    Without a "dark" parameter (an everyday goal that names only the timeout: {"timeout": "5 minutes"}) the task is
    the timeout alone: the theme is neither set up nor checked.
    """

    name, max_steps, split_key = "settings_timeout_theme", 10, "key"
    apps = (SETTINGS,)
    phrasings = ("Set the screen timeout to {timeout} and turn {onoff} dark theme",
                 "Make the screen turn off after {timeout} of inactivity, and switch dark theme {onoff}",
                 "In Display settings, turn dark theme {onoff} and choose a {timeout} screen timeout")

    def grid(self) -> list[dict[str, Any]]:
        """Every timeout with dark theme on and off, three phrasings."""
        return [{"key": f"{t}/{dark}", "timeout": t, "dark": dark, "onoff": "on" if dark else "off",
                 "phrasing": i + k} for i, t in enumerate(S.TIMEOUTS) for dark in (True, False) for k in range(3)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Dark theme the other way; another timeout."""
        shift = 2 + params.get("phrasing", 0) % 4
        other = S.TIMEOUTS[(S.TIMEOUTS.index(params["timeout"]) + shift) % len(S.TIMEOUTS)]
        theme = {"system": {"dark_theme": not params["dark"]}} if "dark" in params else {}
        return {**theme, SETTINGS: {"screen_timeout": other}}

    def check(self, params: Params, state: State) -> bool:
        """The timeout and the theme (when asked) as asked."""
        return (settings_of(state)["screen_timeout"] == params["timeout"]
                and state["system"]["dark_theme"] == params.get("dark", state["system"]["dark_theme"]))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Display: the Dark theme switch (when asked), then Screen timeout and the choice."""
        dark = params.get("dark", state["system"]["dark_theme"])
        step = set_switch("dark_theme", dark, "display", "Dark theme", elements, state)
        if step is not None or settings_of(state)["screen_timeout"] == params["timeout"]:
            return step or wait()
        if settings_of(state)["page"] == "timeout":
            return obstacle(elements, state) or press(elements, text=params["timeout"])
        return to_page("display", elements, state) or reach_row("Screen timeout", elements, state)


class AppStorageTemplate(WorldTemplate):
    """How much storage does {app} use? The answer is its Total on Storage & cache ("312 MB")."""

    name, max_steps, split_key = "settings_app_storage", 14, "app"
    outcome, apps = "answer", (SETTINGS,)
    phrasings = ("How much storage does {app} use in total?", "What is the total storage used by the {app} app?",
                 "Check in Settings how much space {app} takes up")

    def grid(self) -> list[dict[str, Any]]:
        """Every app, two phrasings each."""
        return [{"app": a, "phrasing": i + k} for i, a in enumerate(CACHE_APPS) for k in range(2)]

    def answer(self, params: Params, state: State) -> str | None:
        """The app's total size as shown; None once anything of it was cleared."""
        if any(e["app"] == params["app"] for e in edits(state, "clear_cache", "clear_storage")):
            return None
        app = settings_of(state)["apps"].get(params["app"])  # None: the app is not on the phone
        return S.size_text(sum(app["storage"].values())) if app is not None else None

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Its Storage & cache page; answer with the text under "Total"."""
        step = to_page(S.APP_STORAGE, elements, state, app=params["app"])
        if step is not None:
            return step
        titles = [i for i, e in enumerate(elements) if e.text == "Total" and e.rid == S.ROW_TITLE_RID]
        if not titles or titles[0] + 1 >= len(elements):
            return swipe_up()
        return answer(elements[titles[0] + 1].text)


class ForgetMissingDeviceTemplate(WorldTemplate):
    """Forget {device}, which was never paired: a look-alike ({near}) is saved (leave it)."""

    name, max_steps, split_key = "settings_forget_missing_device", 8, "device"
    outcome, apps = "infeasible", (SETTINGS,)
    phrasings = ForgetDeviceTemplate.phrasings

    def grid(self) -> list[dict[str, Any]]:
        """Every unpaired name, three phrasings."""
        return [{"device": d, "near": near, "phrasing": i + k} for i, (d, near) in enumerate(MISSING.items())
                for k in range(3)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The look-alike saved, the device not."""
        return {SETTINGS: {"devices": [params["near"]], "absent_devices": [params["device"]]}}

    def check(self, params: Params, state: State) -> bool:
        """The device is not saved and no device was forgotten, connected or disconnected."""
        s = settings_of(state)
        return all(d["name"] != params["device"] for d in s["devices"]) and not edits(state, "forget", "connect",
                                                                                      "disconnect")

    def looked(self, params: Params, state: State) -> bool:
        """Settings in front on Saved devices."""
        return state.get("foreground") == SETTINGS and settings_of(state)["page"] == S.SAVED_DEVICES

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open Saved devices; the device is not there: declare."""
        return to_page(S.SAVED_DEVICES, elements, state) or impossible()


class CameraThenPhotoTemplate(WorldTemplate):
    """In Settings, allow Camera to use the camera, then take a photo (a selfie: the front camera)."""

    name, max_steps, split_key = "settings_camera_then_photo", 19, "key"  # 18 until issue 50 re-split it
    apps = (SETTINGS, CAMERA)
    phrasings = ("In Settings, allow the Camera app to use the camera, then take {shot}",
                 "Grant Camera the camera permission from Settings and take {shot}",
                 "The Camera app is blocked from the camera: allow it in Settings, then use it to take {shot}")

    def grid(self) -> list[dict[str, Any]]:
        """Both cameras, the three starting modes, four phrasings."""
        return [{"key": f"cam-{f}-{m}-{k}", "facing": f, "mode": m, "phrasing": k,
                 "shot": "a selfie" if f == "front" else "a photo"}
                for f in camera.FACINGS for m in camera.MODES for k in range(4)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The permission denied, the viewfinder in the variant's mode, on the back camera."""
        return {CAMERA: {"permission": "denied", "mode": params["mode"], "facing": "back"}}

    def check(self, params: Params, state: State) -> bool:
        """Allowed through Settings (its edit log), then exactly one photo with the asked camera."""
        caps = state_of(state, camera.CameraState)["captures"]
        granted = {"op": "permission", "app": "Camera", "perm": "Camera", "value": "Allow"} in edits(state)
        return granted and [(c["kind"], c["facing"]) for c in caps] == [("photo", params["facing"])]

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Apps > Camera > Permissions > Camera > Allow; then open Camera, pick the camera and Photo, shoot."""
        step = permit("Camera", "Camera", "Allow", elements, state) if state_of(state, camera.CameraState)[
            "permission"] != "granted" else None
        if step is not None:
            return step
        if state_of(state, camera.CameraState)["captures"]:
            return wait()
        return shoot("Photo", params["facing"], elements, state)


class TextConnectedDeviceTemplate(WorldTemplate):
    """Text {name} the name of the Bluetooth device the phone is connected to (found in Settings)."""

    name, max_steps, split_key = "settings_text_connected_device", 17, "name"
    apps = (SETTINGS, M.PACKAGE)
    phrasings = ("Text {name} the name of the Bluetooth device my phone is connected to",
                 "Check which Bluetooth device is connected and send its name to {name} by SMS",
                 "Send {name} a message with the name of my connected Bluetooth device")

    def grid(self) -> list[dict[str, Any]]:
        """Thirty task people, three phrasings."""
        return [{"name": n, "phrasing": i} for i, n in enumerate(names("settings-text", 30))]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Bluetooth on, one saved device (drawn by the seed) connected; the person a contact, a namesake's chat."""
        p = person(params["name"])
        twin = conversation(person(namesake(params["name"])), ("Are the headphones any good?",), False)
        return {"system": {"bluetooth": True}, SETTINGS: {"connected": "*"},
                M.PACKAGE: {"threads": [twin], "contacts": [{"name": p["name"], "number": p["number"]}]}}

    def check(self, params: Params, state: State) -> bool:
        """One text, to that person, holding the connected device's name; the device still connected."""
        device = settings_of(state)["connected"]
        return device is not None and texts_ok(state, [(params["name"], device)], contains=True)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Settings > Connected devices (the device shows as connected), then Messages: text its name."""
        s = settings_of(state)
        if "connected" not in s["seen"]:
            return to_page("connected", elements, state) or wait()
        return send_text(person(params["name"]), s["connected"], elements, state)


TEMPLATES: tuple[WorldTemplate, ...] = (
    FlightModeTemplate(), VolumesTemplate(), DenyCameraMicTemplate(), ClearCachesTemplate(), ForgetDeviceTemplate(),
    TimeoutThemeTemplate(), AppStorageTemplate(), ForgetMissingDeviceTemplate(), CameraThenPhotoTemplate(),
    TextConnectedDeviceTemplate())
"""The Settings templates of the world suite."""
