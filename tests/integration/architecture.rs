//! The layers stay apart: the rules and the scenario parser import no Bevy.

use super::root;

fn rust_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable dir") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn rules_and_scenarios_do_not_import_bevy() {
    let mut files = Vec::new();
    for layer in ["src/rules", "src/scenario"] {
        rust_files(&root().join(layer), &mut files);
    }
    assert!(files.len() >= 5, "found the layers' files");
    for file in files {
        let text = std::fs::read_to_string(&file).expect("readable");
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or_default();
            assert!(!code.contains("bevy"), "{}:{}: the pure layers must not use Bevy: {line}", file.display(), n + 1);
        }
    }
}

#[test]
fn every_source_file_says_what_lives_there() {
    let mut files = Vec::new();
    rust_files(&root().join("src"), &mut files);
    for file in files {
        let text = std::fs::read_to_string(&file).expect("readable");
        assert!(text.starts_with("//!"), "{} starts without a //! line", file.display());
    }
}
