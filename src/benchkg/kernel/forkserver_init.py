"""Imported by ``benchkg serve``'s fork server only (it is first in the fork server's preload list):
the fork server asks to be killed with ``serve``. Its query workers ask the same of the fork server
(:func:`benchkg.publish.serve._answer`), so killing ``serve``, even with SIGKILL, stops every query.

The fork server is started from ``serve``'s main thread (the parent-death signal follows the
thread that started a process, and request threads end).
"""

from benchkg.kernel.lifeline import die_with_parent

die_with_parent()
