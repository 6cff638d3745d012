"""The 116 tasks of AndroidWorld (google-research/android_world, registry at commit d9c569f), by the app they run
in: the names the `AndroidWorld-v0` suite answers to, implemented or not (docs/ANDROIDWORLD.md maps each one)."""  # noqa: D205, D209

from __future__ import annotations

ANDROIDWORLD_TASKS: dict[str, str] = {
    # Audio Recorder
    "AudioRecorderRecordAudio": "Audio Recorder", "AudioRecorderRecordAudioWithFileName": "Audio Recorder",
    # Broccoli (recipes)
    "RecipeAddSingleRecipe": "Broccoli (recipes)", "RecipeAddMultipleRecipes": "Broccoli (recipes)",
    "RecipeAddMultipleRecipesFromMarkor": "Broccoli (recipes)",
    "RecipeAddMultipleRecipesFromMarkor2": "Broccoli (recipes)",
    "RecipeAddMultipleRecipesFromImage": "Broccoli (recipes)", "RecipeDeleteSingleRecipe": "Broccoli (recipes)",
    "RecipeDeleteSingleWithRecipeWithNoise": "Broccoli (recipes)",
    "RecipeDeleteMultipleRecipes": "Broccoli (recipes)",
    "RecipeDeleteMultipleRecipesWithNoise": "Broccoli (recipes)",
    "RecipeDeleteMultipleRecipesWithConstraint": "Broccoli (recipes)",
    "RecipeDeleteDuplicateRecipes": "Broccoli (recipes)", "RecipeDeleteDuplicateRecipes2": "Broccoli (recipes)",
    "RecipeDeleteDuplicateRecipes3": "Broccoli (recipes)",
    # Camera
    "CameraTakePhoto": "Camera", "CameraTakeVideo": "Camera",
    # Chrome (browser)
    "BrowserDraw": "Chrome (browser)", "BrowserMaze": "Chrome (browser)", "BrowserMultiply": "Chrome (browser)",
    # Clock
    "ClockStopWatchPausedVerify": "Clock", "ClockStopWatchRunning": "Clock", "ClockTimerEntry": "Clock",
    # Contacts
    "ContactsAddContact": "Contacts", "ContactsNewContactDraft": "Contacts",
    # Files
    "FilesDeleteFile": "Files", "FilesMoveFile": "Files",
    # Joplin (information retrieval)
    "NotesRecipeIngredientCount": "Joplin (information retrieval)",
    "NotesMeetingAttendeeCount": "Joplin (information retrieval)", "NotesIsTodo": "Joplin (information retrieval)",
    "NotesTodoItemCount": "Joplin (information retrieval)",
    # Markor
    "MarkorAddNoteHeader": "Markor", "MarkorChangeNoteContent": "Markor", "MarkorCreateFolder": "Markor",
    "MarkorCreateNote": "Markor", "MarkorCreateNoteFromClipboard": "Markor", "MarkorDeleteAllNotes": "Markor",
    "MarkorDeleteNewestNote": "Markor", "MarkorDeleteNote": "Markor", "MarkorEditNote": "Markor",
    "MarkorMergeNotes": "Markor", "MarkorMoveNote": "Markor", "MarkorTranscribeReceipt": "Markor",
    "MarkorTranscribeVideo": "Markor", "MarkorCreateNoteAndSms": "Markor",
    # OpenTracks (information retrieval)
    "SportsTrackerActivitiesOnDate": "OpenTracks (information retrieval)",
    "SportsTrackerActivitiesCountForWeek": "OpenTracks (information retrieval)",
    "SportsTrackerActivityDuration": "OpenTracks (information retrieval)",
    "SportsTrackerLongestDistanceActivity": "OpenTracks (information retrieval)",
    "SportsTrackerTotalDurationForCategoryThisWeek": "OpenTracks (information retrieval)",
    "SportsTrackerTotalDistanceForCategoryOverInterval": "OpenTracks (information retrieval)",
    # OsmAnd (maps)
    "OsmAndFavorite": "OsmAnd (maps)", "OsmAndMarker": "OsmAnd (maps)", "OsmAndTrack": "OsmAnd (maps)",
    # Pro Expense
    "ExpenseAddSingle": "Pro Expense", "ExpenseAddMultiple": "Pro Expense",
    "ExpenseAddMultipleFromGallery": "Pro Expense", "ExpenseAddMultipleFromMarkor": "Pro Expense",
    "ExpenseDeleteSingle": "Pro Expense", "ExpenseDeleteMultiple": "Pro Expense",
    "ExpenseDeleteMultiple2": "Pro Expense", "ExpenseDeleteDuplicates": "Pro Expense",
    "ExpenseDeleteDuplicates2": "Pro Expense",
    # Retro Music
    "RetroCreatePlaylist": "Retro Music", "RetroPlayingQueue": "Retro Music", "RetroPlaylistDuration": "Retro Music",
    "RetroSavePlaylist": "Retro Music",
    # Settings and system
    "OpenAppTaskEval": "Settings and system", "SystemBluetoothTurnOff": "Settings and system",
    "SystemBluetoothTurnOffVerify": "Settings and system", "SystemBluetoothTurnOn": "Settings and system",
    "SystemBluetoothTurnOnVerify": "Settings and system", "SystemBrightnessMax": "Settings and system",
    "SystemBrightnessMaxVerify": "Settings and system", "SystemBrightnessMin": "Settings and system",
    "SystemBrightnessMinVerify": "Settings and system", "SystemCopyToClipboard": "Settings and system",
    "SystemWifiTurnOff": "Settings and system", "SystemWifiTurnOffVerify": "Settings and system",
    "SystemWifiTurnOn": "Settings and system", "SystemWifiTurnOnVerify": "Settings and system",
    "TurnOffWifiAndTurnOnBluetooth": "Settings and system", "TurnOnWifiAndOpenApp": "Settings and system",
    # Simple Calendar Pro
    "SimpleCalendarAddOneEvent": "Simple Calendar Pro", "SimpleCalendarAddOneEventInTwoWeeks": "Simple Calendar Pro",
    "SimpleCalendarAddOneEventRelativeDay": "Simple Calendar Pro",
    "SimpleCalendarAddOneEventTomorrow": "Simple Calendar Pro",
    "SimpleCalendarAddRepeatingEvent": "Simple Calendar Pro", "SimpleCalendarDeleteEvents": "Simple Calendar Pro",
    "SimpleCalendarDeleteEventsOnRelativeDay": "Simple Calendar Pro",
    "SimpleCalendarDeleteOneEvent": "Simple Calendar Pro", "SimpleCalendarEventsOnDate": "Simple Calendar Pro",
    "SimpleCalendarNextEvent": "Simple Calendar Pro", "SimpleCalendarEventOnDateAtTime": "Simple Calendar Pro",
    "SimpleCalendarAnyEventsOnDate": "Simple Calendar Pro",
    "SimpleCalendarNextMeetingWithPerson": "Simple Calendar Pro",
    "SimpleCalendarLocationOfEvent": "Simple Calendar Pro", "SimpleCalendarEventsInNextWeek": "Simple Calendar Pro",
    "SimpleCalendarFirstEventAfterStartTime": "Simple Calendar Pro",
    "SimpleCalendarEventsInTimeRange": "Simple Calendar Pro",
    # Simple Draw Pro
    "SimpleDrawProCreateDrawing": "Simple Draw Pro",
    # Simple Gallery Pro
    "SaveCopyOfReceiptTaskEval": "Simple Gallery Pro",
    # Simple SMS Messenger
    "SimpleSmsSend": "Simple SMS Messenger", "SimpleSmsReply": "Simple SMS Messenger",
    "SimpleSmsReplyMostRecent": "Simple SMS Messenger", "SimpleSmsResend": "Simple SMS Messenger",
    "SimpleSmsSendClipboardContent": "Simple SMS Messenger", "SimpleSmsSendReceivedAddress": "Simple SMS Messenger",
    # Tasks (information retrieval)
    "TasksDueOnDate": "Tasks (information retrieval)", "TasksHighPriorityTasks": "Tasks (information retrieval)",
    "TasksHighPriorityTasksDueOnDate": "Tasks (information retrieval)",
    "TasksDueNextWeek": "Tasks (information retrieval)",
    "TasksCompletedTasksForDate": "Tasks (information retrieval)",
    "TasksIncompleteTasksOnDate": "Tasks (information retrieval)",
    # VLC
    "VlcCreatePlaylist": "VLC", "VlcCreateTwoPlaylists": "VLC",
}
"""AndroidWorld task name -> the app (or app group) it runs in, as AndroidWorld's registry lists them: 91 task classes
and 25 information-retrieval tasks."""
