# SPDX-License-Identifier: GPL-2.0
"""Matplotlib for the affsched scripts that draw PNGs (trace-summary.py
--png, bench-table.py --png); imported, not run.

pyplot() loads matplotlib with the Agg backend (no display needed).  When
the running interpreter lacks it (a pyenv or virtualenv python3 ahead of
Debian's in PATH) and /usr/bin/python3 has it (Debian's
python3-matplotlib), the script is run again under /usr/bin/python3 with
the same arguments; call pyplot() before reading stdin.  Without
matplotlib anywhere it raises PlotError naming the package to install.
"""
import os
import sys

SYSTEM_PYTHON = '/usr/bin/python3'
REEXEC_GUARD = 'AFFSCHED_PLOT_REEXEC'

# One colour per meaning, the same in every picture.
COLOR_OFF = '#9e9e9e'       # enable 0
COLOR_ON = '#1f77b4'        # enable 1
COLOR_CAPPED = '#6baed6'    # enable 1, max_reserved capped
COLOR_STATIC = '#ff7f0e'    # taskset static references (enable 0)
COLOR_ONE = '#2ca02c'       # the single copy
COLOR_MEMBERS = '#1f77b4'
COLOR_N = '#d62728'
COLOR_SIZE = '#2ca02c'
COLOR_U = '#9467bd'
COLOR_REDIRECT = '#ff7f0e'
COLOR_MOVE = '#d62728'


class PlotError(Exception):
    """matplotlib is missing, or the picture cannot be written."""


def pyplot():
    """matplotlib.pyplot with the Agg backend (see the module docstring)."""
    try:
        import matplotlib
    except ImportError:
        here = os.path.realpath(sys.executable or '')
        if (not os.environ.get(REEXEC_GUARD) and os.access(SYSTEM_PYTHON, os.X_OK) and
                here != os.path.realpath(SYSTEM_PYTHON)):
            os.environ[REEXEC_GUARD] = '1'
            sys.stdout.flush()
            sys.stderr.flush()
            os.execv(SYSTEM_PYTHON, [SYSTEM_PYTHON] + sys.argv)
        raise PlotError('matplotlib is not installed for ' + (sys.executable or 'python3') +
                        " (Debian: apt-get install python3-matplotlib; openEuler: "
                        "dnf install python3-matplotlib)") from None
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    return plt


def require(prog):
    """Load matplotlib as pyplot() does; without it print why and exit 3.

    Call it before reading stdin: it may run the script again.
    """
    try:
        pyplot()
    except PlotError as e:
        print(f'{prog}: {e}', file=sys.stderr)
        sys.exit(3)


def save(fig, path):
    """Write @fig to @path as a PNG and close it."""
    plt = pyplot()
    try:
        fig.savefig(path, format='png', dpi=100)
    except OSError as e:
        raise PlotError(f'cannot write {path}: {e.strerror or e}') from e
    finally:
        plt.close(fig)
