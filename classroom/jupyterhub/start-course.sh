#!/bin/bash
# Run by docker-stacks' start script before JupyterLab (/usr/local/bin/before-notebook.d/): copy
# into ~/mpteach every notebook of $MPTEACH_NOTEBOOKS (the student copies; the Dockerfile sets it)
# that the student does not have yet. A notebook the student has is never touched, so their work
# survives restarts and image updates, and a chapter added later still arrives.
source_dir="${MPTEACH_NOTEBOOKS:-}"
target_dir="${HOME}/mpteach"
if [ -n "$source_dir" ] && [ -d "$source_dir" ]; then
  while IFS= read -r -d '' file; do
    relative="${file#"$source_dir"/}"
    if [ ! -e "$target_dir/$relative" ]; then
      mkdir -p "$(dirname "$target_dir/$relative")"
      cp "$file" "$target_dir/$relative"
    fi
  done < <(find "$source_dir" -type f -print0)
fi
