"""Publish each ``metrics/<family>/`` folder as a Hugging Face Space (an evaluate module).

    python scripts/publish_spaces.py --org my-org --dry-run   # list what would be uploaded
    python scripts/publish_spaces.py --org my-org             # needs `huggingface-cli login`

A Space holds the loading script, the metric card (README.md with the Space header),
``requirements.txt`` and ``app.py``; ``evaluate.load("my-org/<family>")`` then fetches the
script, which imports the installed ``nerlens`` families.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FAMILIES = ("faireval", "tough_mentions", "hardeval", "attribute_buckets")
SPACE_FILES = ("{family}.py", "README.md", "requirements.txt", "app.py")


def space_files(family: str, metrics_dir: Path = REPO / "metrics") -> list[Path]:
    """The files of one Space, checked to exist (nothing else in the folder is uploaded)."""
    folder = metrics_dir / family
    files = [folder / name.format(family=family) for name in SPACE_FILES]
    missing = [str(f) for f in files if not f.is_file()]
    if missing:
        raise FileNotFoundError(f"Space {family} is incomplete: missing {missing}")
    return files


def publish(org: str, families=FAMILIES, dry_run: bool = False, out=sys.stdout) -> list[str]:
    """Upload (or with ``dry_run`` only list) every Space; returns ``repo_id/file`` lines."""
    lines = []
    for family in families:
        repo_id = f"{org}/{family}"
        files = space_files(family)
        lines += [f"{repo_id}/{f.name}" for f in files]
        if dry_run:
            continue
        from huggingface_hub import HfApi

        api = HfApi()
        api.create_repo(repo_id, repo_type="space", space_sdk="gradio", exist_ok=True)
        api.upload_folder(repo_id=repo_id, repo_type="space", folder_path=str(files[0].parent),
                          allow_patterns=[f.name for f in files],
                          commit_message=f"nerlens: {family}")
    for line in lines:
        print(("would upload " if dry_run else "uploaded ") + line, file=out)
    return lines


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--org", required=True, help="Hub user or organisation")
    parser.add_argument("--family", action="append", choices=FAMILIES,
                        help="publish only these (repeatable); default all four")
    parser.add_argument("--dry-run", action="store_true", help="list the files, upload nothing")
    args = parser.parse_args(argv)
    publish(args.org, tuple(args.family or FAMILIES), dry_run=args.dry_run)
    return 0


if __name__ == "__main__":
    sys.exit(main())
