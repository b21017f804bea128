"""People in a group chat: their aliases (``aliases``) and finding them in text (``resolve``). Pure, no I/O."""
