"""The one exception readers raise for a file they cannot read, and the messages for a read that failed
without one."""

__all__ = ["OUT_OF_MEMORY", "READER_DIED", "ReadError"]

READER_DIED = "读取时程序异常退出（文件可能过大或已损坏）"
OUT_OF_MEMORY = "读取时内存不足（超过读取进程的内存上限），文件可能过大或已损坏"


class ReadError(Exception):
    """A file cannot be read; the message is shown to the user as it is."""
