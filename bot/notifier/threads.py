"""What this process knows of the bottom of each table thread: the bot's narration message that is still the newest
one (quiet narration is added to it by an edit: `Posts`), the newest narration message a command's token made (the
status may move onto it: `Status`) and how many messages sit below each, and below the status message (a status
buried too deep moves down: `Status`). Every new message in a thread, from the gateway, updates them."""


class Threads:
    """The newest narration message and the status message's depth, per thread (see the module's docstring)."""

    def __init__(self) -> None:
        self.tails: dict[int, tuple[int, str]] = {}
        """Thread id → the bot's narration message that is the thread's newest message, and its text: narration
        that pings nobody is added to it by an edit instead of a new message (`Posts.narrate`)."""
        self.status_at: dict[int, tuple[int, int]] = {}
        """Thread id → (the status message's id, how many messages were posted below it since this process knew
        it): a status buried too deep moves to the bottom (`Status.deliver`)."""
        self.answers: dict[int, tuple[int, int]] = {}
        """Thread id → (the newest narration message a command's answer or follow-up made, how many messages were
        posted below it since): while that command's token lives, a status on a message only the bot's rate-limited
        call edits moves onto it even when tracked posts (offers, windows) came after it (`Status._cheaper_below`)."""

    def saw_message(self, channel_id: int, message_id: int) -> None:
        """A new message in a channel (anyone's, from the gateway; the bot's own too): it ends the narration
        message's run as the newest message, and buries the status message one message deeper."""
        tail = self.tails.get(channel_id)
        if tail is not None and message_id > tail[0]:
            del self.tails[channel_id]
        status = self.status_at.get(channel_id)
        if status is not None and message_id > status[0]:
            self.status_at[channel_id] = (status[0], status[1] + 1)
        answer = self.answers.get(channel_id)
        if answer is not None and message_id > answer[0]:
            self.answers[channel_id] = (answer[0], answer[1] + 1)
