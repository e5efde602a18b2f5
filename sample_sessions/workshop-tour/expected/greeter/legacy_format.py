"""Old formatting helpers, kept for one more release."""


def banner(text: str) -> str:
    return f"*** {text} ***"
