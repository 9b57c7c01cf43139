"""The process tree under /proc, for the checks that a command left no
process behind (tests/cli/test_cli.py, tests/programs/t_stop.py)."""
import os


def children(pid):
    """The direct children of pid (every thread's), empty once it is gone."""
    kids = set()
    task = "/proc/%d/task" % pid
    for t in os.listdir(task) if os.path.isdir(task) else []:
        try:
            kids |= {int(k) for k in open("%s/%s/children" % (task, t)).read().split()}
        except OSError:
            pass
    return kids


def descendants(pid):
    """Every process below pid, as far as /proc shows them now."""
    out, todo = set(), [pid]
    while todo:
        for k in children(todo.pop()):
            if k not in out:
                out.add(k)
                todo.append(k)
    return out


def alive(pids):
    """The processes of pids still there (a zombie counts: not reaped)."""
    return sorted(k for k in pids if os.path.exists("/proc/%d" % k))
