"""Publish each ``metrics/<family>/`` folder as a Hugging Face Space (an evaluate module).

    python scripts/publish_spaces.py --org my-org --dry-run   # write the Spaces, upload nothing
    python scripts/publish_spaces.py --org my-org             # needs `huggingface-cli login`

A Space holds the loading script, the metric card (README.md with the Space header),
``app.py``, ``requirements.txt`` and the nerlens wheel built from this checkout: nerlens is
not on a package index yet, so the requirements name the wheel by its path relative to
the Space (``./nerlens-<version>-py3-none-any.whl``). The dry run writes every Space
folder exactly as it would be uploaded (``--out``, default ``build/spaces``), so that it
can be installed and run as the Hub would; ``evaluate.load("my-org/<family>")`` then
fetches the script, which imports the installed nerlens families.
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # the nerlens of this checkout, whose Spaces are published
from nerlens.families import family_names  # noqa: E402

# one Space per registered family that has a metric folder here (a family registered by
# another distribution publishes its own)
FAMILIES = tuple(name for name in family_names() if (REPO / "metrics" / name).is_dir())
COPIED_FILES = ("{family}.py", "README.md", "app.py")
REQUIREMENTS = "requirements.txt"


def source_files(family: str, metrics_dir: Path = REPO / "metrics") -> list[Path]:
    """The repository files of one Space, checked to exist (nothing else is published)."""
    folder = metrics_dir / family
    files = [folder / name.format(family=family) for name in COPIED_FILES + (REQUIREMENTS,)]
    missing = [str(f) for f in files if not f.is_file()]
    if missing:
        raise FileNotFoundError(f"Space {family} is incomplete: missing {missing}")
    return files


def build_wheel(out_dir: Path) -> Path:
    """Build the nerlens wheel of this checkout into ``out_dir`` (pip, no extra tools)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet",
                    "--wheel-dir", str(out_dir), str(REPO)], check=True)
    wheels = sorted(out_dir.glob("nerlens-*.whl"))
    if len(wheels) != 1:
        raise RuntimeError(f"expected one nerlens wheel in {out_dir}, found {wheels}")
    return wheels[0]


def space_requirements(source: Path, wheel_name: str) -> str:
    """The Space's requirements: the ``nerlens`` line becomes the shipped wheel's path."""
    lines = source.read_text().splitlines()
    if "nerlens" not in [line.strip() for line in lines]:
        raise ValueError(f"{source} has no line 'nerlens' to point to the wheel")
    return "\n".join(f"./{wheel_name}" if line.strip() == "nerlens" else line
                     for line in lines) + "\n"


def write_space(family: str, wheel: Path, out_dir: Path) -> Path:
    """Write one Space folder as it is uploaded; returns the folder."""
    folder = out_dir / family
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    *copied, requirements = source_files(family)
    for path in copied:
        shutil.copy2(path, folder / path.name)
    shutil.copy2(wheel, folder / wheel.name)
    (folder / REQUIREMENTS).write_text(space_requirements(requirements, wheel.name))
    return folder


def publish(org: str, families=FAMILIES, dry_run: bool = False, out_dir: Path | None = None,
            wheel: Path | None = None, out=sys.stdout) -> list[Path]:
    """Write every Space folder, and unless ``dry_run`` upload it; returns the folders.

    ``wheel`` is a nerlens wheel already built from this checkout (default: build one).
    """
    out_dir = Path(out_dir) if out_dir else REPO / "build" / "spaces"
    if wheel is None:
        wheel = build_wheel(Path(tempfile.mkdtemp(prefix="nerlens-wheel-")))
    folders = [write_space(family, Path(wheel), out_dir) for family in families]
    for family, folder in zip(families, folders):
        repo_id = f"{org}/{family}"
        names = sorted(p.name for p in folder.iterdir())
        if not dry_run:
            _upload(repo_id, folder)
        verb = "would upload" if dry_run else "uploaded"
        print(f"{verb} {repo_id}: {', '.join(names)} (from {folder})", file=out)
    return folders


def _upload(repo_id: str, folder: Path) -> None:
    from huggingface_hub import HfApi

    api = HfApi()
    api.create_repo(repo_id, repo_type="space", space_sdk="gradio", exist_ok=True)
    api.upload_folder(repo_id=repo_id, repo_type="space", folder_path=str(folder),
                      commit_message=f"nerlens: {folder.name}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--org", required=True, help="Hub user or organisation")
    parser.add_argument("--family", action="append", choices=FAMILIES,
                        help="publish only these (repeatable); default all four")
    parser.add_argument("--dry-run", action="store_true",
                        help="write the Space folders, upload nothing")
    parser.add_argument("--out", type=Path, help="where the Space folders are written "
                                                 "(default build/spaces)")
    parser.add_argument("--wheel", type=Path,
                        help="a nerlens wheel built from this checkout (default: build one)")
    args = parser.parse_args(argv)
    publish(args.org, tuple(args.family or FAMILIES), dry_run=args.dry_run,
            out_dir=args.out, wheel=args.wheel)
    return 0


if __name__ == "__main__":
    sys.exit(main())
