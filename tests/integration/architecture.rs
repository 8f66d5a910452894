//! The layers stay apart: the rules and the scenario parser import no Bevy, and the app's units import only down its
//! layers (`core`, then `features`, then `view`), without cycles.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

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
fn rules_srd_data_and_scenarios_do_not_import_bevy() {
    let mut files = Vec::new();
    for layer in ["src/rules", "src/srd", "src/scenario"] {
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

/// The layer a unit of `src/app` belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Layer {
    /// `src/app/mod.rs`, which wires the plugins together.
    Root,
    /// `src/app/core/`: the bottom layer, which imports only itself.
    Core,
    /// `src/app/features/`: one plugin per feature, importing only the core.
    Feature,
    /// `src/app/view/`: what is drawn, which may import anything.
    View,
    /// A file or folder left directly in `src/app`: it may import anything, like a view.
    Loose,
}

/// A unit of `src/app`: a file or folder of a layer, a layer's `mod.rs`, or the app's root.
struct Unit {
    /// Its name, such as `app`, `core`, `features::session` or `view::panels`.
    name: String,
    /// Its layer.
    layer: Layer,
    /// Whether it is a layer's own `mod.rs`, whose arrows to its children only declare them.
    layer_root: bool,
}

/// One import of a unit by another, with where it is written (`file:line`).
struct Arrow {
    /// The importing unit.
    from: String,
    /// The imported unit.
    to: String,
    /// Where the import is written, as `file:line`.
    at: String,
}

/// The layer a folder directly in `src/app` makes, if it makes one.
fn layer_named(folder: &str) -> Option<Layer> {
    match folder {
        "core" => Some(Layer::Core),
        "features" => Some(Layer::Feature),
        "view" => Some(Layer::View),
        _ => None,
    }
}

/// The unit of a file, given as its path inside `src/app` with `/` between the parts.
fn unit_of(file: &str) -> Unit {
    let parts: Vec<&str> = file.split('/').map(|part| part.strip_suffix(".rs").unwrap_or(part)).collect();
    let unit = |name: String, layer: Layer, layer_root: bool| Unit { name, layer, layer_root };
    match (parts.as_slice(), layer_named(parts[0])) {
        (["mod"], _) => unit("app".to_string(), Layer::Root, false),
        ([top] | [top, "mod"], Some(layer)) => unit((*top).to_string(), layer, true),
        ([top, child, ..], Some(layer)) => unit(format!("{top}::{child}"), layer, false),
        ([name, ..], _) => unit((*name).to_string(), Layer::Loose, false),
        ([], _) => unreachable!("a split gives at least one part"),
    }
}

/// The module path of a file inside `src/app`: `features/session/file.rs` is `app::features::session::file`.
fn module_path(file: &str) -> Vec<String> {
    let mut path = vec!["app".to_string()];
    path.extend(file.split('/').map(|part| part.strip_suffix(".rs").unwrap_or(part).to_string()));
    if path.last().is_some_and(|last| last == "mod") {
        path.pop();
    }
    path
}

/// Whether `c` may go on an identifier.
fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The text with its comments and the insides of its string and char literals turned to spaces, lines kept.
fn code_only(text: &str) -> Vec<char> {
    let src: Vec<char> = text.chars().collect();
    let mut code = src.clone();
    let mut blank = |from: usize, to: usize| {
        let to = to.min(src.len());
        for c in &mut code[from.min(to)..to] {
            if *c != '\n' {
                *c = ' ';
            }
        }
    };
    let at = |i: usize| src.get(i).copied().unwrap_or(' ');
    let mut i = 0;
    while i < src.len() {
        let word_start = i == 0 || !is_ident(src[i - 1]) || (src[i - 1] == 'b' && (i < 2 || !is_ident(src[i - 2])));
        let hashes = src[i + 1..].iter().take_while(|&&c| c == '#').count();
        if src[i] == '/' && at(i + 1) == '/' {
            let end = src[i..].iter().position(|&c| c == '\n').map_or(src.len(), |n| i + n);
            blank(i, end);
            i = end;
        } else if src[i] == '/' && at(i + 1) == '*' {
            let (mut end, mut depth) = (i + 2, 1);
            while end < src.len() && depth > 0 {
                match (src[end], at(end + 1)) {
                    ('/', '*') => (end, depth) = (end + 2, depth + 1),
                    ('*', '/') => (end, depth) = (end + 2, depth - 1),
                    _ => end += 1,
                }
            }
            blank(i, end);
            i = end;
        } else if src[i] == '"' {
            let mut end = i + 1;
            while end < src.len() && src[end] != '"' {
                end += if src[end] == '\\' { 2 } else { 1 };
            }
            blank(i + 1, end);
            i = end + 1;
        } else if src[i] == 'r' && word_start && at(i + 1 + hashes) == '"' {
            let close: Vec<char> = std::iter::once('"').chain(std::iter::repeat_n('#', hashes)).collect();
            let open = i + 2 + hashes;
            let end = (open..src.len()).find(|&n| src[n..].starts_with(&close)).unwrap_or(src.len());
            blank(open, end);
            i = end + close.len();
        } else if src[i] == '\'' && at(i + 1) == '\\' {
            let end = (i + 3..src.len()).find(|&n| src[n] == '\'').unwrap_or(src.len());
            blank(i + 1, end);
            i = end + 1;
        } else if src[i] == '\'' && at(i + 2) == '\'' {
            blank(i + 1, i + 2);
            i += 3;
        } else {
            i += 1;
        }
    }
    code
}

/// The identifier starting at `at` (without an `r#`) and where it ends, if one starts there.
fn ident_at(code: &[char], at: usize) -> Option<(String, usize)> {
    let start = if code.get(at..at + 2) == Some(&['r', '#']) { at + 2 } else { at };
    let first = *code.get(start)?;
    if !(first.is_alphabetic() || first == '_') || (at > 0 && is_ident(code[at - 1])) {
        return None;
    }
    let end = start + code[start..].iter().take_while(|&&c| is_ident(c)).count();
    Some((code[start..end].iter().collect(), end))
}

/// The first place from `at` that is not white space.
fn skip_space(code: &[char], at: usize) -> usize {
    at + code[at.min(code.len())..].iter().take_while(|c| c.is_whitespace()).count()
}

/// Reads the path or use tree starting at `at`, adding each whole path it names (and where its last part is written)
/// to `out`, each prefixed with `prefix`; returns where it ends.
fn read_tree(code: &[char], mut at: usize, prefix: &[String], out: &mut Vec<(Vec<String>, usize)>) -> usize {
    let mut path = prefix.to_vec();
    loop {
        at = skip_space(code, at);
        match code.get(at) {
            Some('{') => return read_group(code, at + 1, &path, out),
            Some('*') => {
                out.push((path, at));
                return at + 1;
            }
            _ => {}
        }
        let Some((name, end)) = ident_at(code, at) else { return at };
        let start = at;
        path.push(name);
        at = end;
        let colons = skip_space(code, at);
        let next = skip_space(code, colons + 2);
        let goes_on = code.get(colons..colons + 2) == Some(&[':', ':'])
            && code.get(next).is_some_and(|&c| c == '{' || c == '*' || ident_at(code, next).is_some());
        if goes_on {
            at = colons + 2;
            continue;
        }
        out.push((path, start));
        let after = skip_space(code, at);
        if let Some(("as", alias)) = ident_at(code, after).as_ref().map(|(word, end)| (word.as_str(), *end)) {
            let alias = skip_space(code, alias);
            return ident_at(code, alias).map_or(alias, |(_, end)| end);
        }
        return at;
    }
}

/// Reads a use tree's `{...}` group from just after its `{`; returns where it ends.
fn read_group(code: &[char], mut at: usize, prefix: &[String], out: &mut Vec<(Vec<String>, usize)>) -> usize {
    loop {
        at = skip_space(code, at);
        match code.get(at) {
            None => return at,
            Some('}') => return at + 1,
            Some(',') => at += 1,
            Some(_) => {
                let end = read_tree(code, at, prefix, out);
                if end == at {
                    return at;
                }
                at = end;
            }
        }
    }
}

/// Whether the code just before `at` is `pub(in`: what follows only says who sees an item.
fn after_pub_in(code: &[char], at: usize) -> bool {
    code[..at].iter().rev().filter(|c| !c.is_whitespace()).take(6).copied().eq("pub(in".chars().rev())
}

/// Every path in the code that starts with `crate::`, `super::` or `self::`, with where its last part is written.
/// A path in `pub(in ...)` only says who sees an item, and is left out.
fn paths_in(code: &[char]) -> Vec<(Vec<String>, usize)> {
    let mut paths = Vec::new();
    let mut at = 0;
    while at < code.len() {
        let Some((word, end)) = ident_at(code, at) else {
            at += 1;
            continue;
        };
        let colons = skip_space(code, end);
        if matches!(word.as_str(), "crate" | "super" | "self")
            && code.get(colons..colons + 2) == Some(&[':', ':'])
            && (at == 0 || code[at - 1] != ':')
            && !after_pub_in(code, at)
        {
            at = read_tree(code, at, &[], &mut paths).max(end);
        } else {
            at = end;
        }
    }
    paths
}

/// The inline modules (`mod tests { ... }`) of the code: where each opens, where it closes, and its name.
fn inline_modules(code: &[char]) -> Vec<(usize, usize, String)> {
    let mut modules = Vec::new();
    let mut open: Vec<(usize, usize, String)> = Vec::new();
    let mut depth = 0_usize;
    for at in 0..code.len() {
        match code[at] {
            '{' => depth += 1,
            '}' => {
                depth = depth.saturating_sub(1);
                if open.last().is_some_and(|&(_, level, _)| level == depth) {
                    let (start, _, name) = open.pop().expect("an open module");
                    modules.push((start, at, name));
                }
            }
            _ => {
                let Some(("mod", end)) = ident_at(code, at).as_ref().map(|(word, end)| (word.as_str(), *end)) else {
                    continue;
                };
                let Some((name, end)) = ident_at(code, skip_space(code, end)) else { continue };
                let brace = skip_space(code, end);
                if code.get(brace) == Some(&'{') {
                    open.push((brace, depth, name));
                }
            }
        }
    }
    modules.sort();
    modules
}

/// Where a module path leads among the files of `src/app`: the deepest of its modules that has a file.
fn target_file(module: &[String], files: &BTreeSet<String>) -> String {
    let mut file = "mod.rs".to_string();
    let mut folder = String::new();
    for part in module.iter().skip(1) {
        let flat = format!("{folder}{part}.rs");
        let nested = format!("{folder}{part}/mod.rs");
        if files.contains(&flat) {
            file = flat;
        } else if files.contains(&nested) {
            file = nested;
        } else {
            break;
        }
        folder = format!("{folder}{part}/");
    }
    file
}

/// The absolute module path a path read in the module `scope` names, if it is in the app.
fn resolve(path: &[String], scope: &[String]) -> Option<Vec<String>> {
    let (mut module, rest) = match path.split_first() {
        Some((first, rest)) if first == "crate" => (Vec::new(), rest),
        _ => (scope.to_vec(), path),
    };
    for part in rest {
        match part.as_str() {
            "super" => {
                module.pop()?;
            }
            "self" => {}
            _ => module.push(part.clone()),
        }
    }
    (module.first().is_some_and(|first| first == "app")).then_some(module)
}

/// The arrows between the units of the app in `app` (its `src/app`), and every unit's layer.
fn app_arrows(app: &std::path::Path) -> (Vec<Arrow>, BTreeMap<String, Layer>) {
    let mut paths = Vec::new();
    rust_files(app, &mut paths);
    paths.sort();
    let name = |path: &std::path::Path| {
        let inside = path.strip_prefix(app).expect("a file under src/app");
        inside.components().map(|part| part.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/")
    };
    let files: BTreeSet<String> = paths.iter().map(|path| name(path)).collect();
    let mut arrows = Vec::new();
    let mut layers = BTreeMap::new();
    for path in &paths {
        let file = name(path);
        let unit = unit_of(&file);
        layers.insert(unit.name.clone(), unit.layer);
        let code = code_only(&std::fs::read_to_string(path).expect("a readable source file"));
        let lines: Vec<usize> = code.iter().enumerate().filter(|&(_, &c)| c == '\n').map(|(at, _)| at).collect();
        let modules = inline_modules(&code);
        for (path, at) in paths_in(&code) {
            let mut scope = module_path(&file);
            scope.extend(modules.iter().filter(|(open, close, _)| *open < at && at < *close).map(|(.., m)| m.clone()));
            let Some(module) = resolve(&path, &scope) else { continue };
            let to = unit_of(&target_file(&module, &files));
            let declares_child = unit.layer_root && to.layer == unit.layer;
            if to.name != unit.name && !declares_child {
                let line = lines.partition_point(|&end| end < at) + 1;
                arrows.push(Arrow { from: unit.name.clone(), to: to.name, at: format!("src/app/{file}:{line}") });
            }
        }
    }
    (arrows, layers)
}

/// Why the layers forbid an arrow from a unit of the layer `from` to one of the layer `to`, if they do.
fn forbidden(from: Layer, to: Layer) -> Option<&'static str> {
    match (from, to) {
        (_, Layer::Root) => Some("nothing imports the app's root (src/app/mod.rs only wires the plugins)"),
        (Layer::Feature, Layer::Feature) => Some("a feature imports no other feature (what they share goes in core/)"),
        (Layer::Feature, Layer::View | Layer::Loose) => Some("a feature imports no view"),
        (Layer::Core, Layer::Feature) => Some("the core imports no feature"),
        (Layer::Core, Layer::View | Layer::Loose) => Some("the core imports no view"),
        _ => None,
    }
}

/// The arrows between units, once per pair: from a unit, to a unit, the `file:line` of the first such arrow.
type Edges<'a> = BTreeMap<&'a str, BTreeMap<&'a str, &'a str>>;

/// The shortest path along `edges` from the unit `from` to the unit `to`, both included, if there is one.
fn shortest_path<'a>(edges: &Edges<'a>, from: &'a str, to: &str) -> Option<Vec<&'a str>> {
    let mut came_from: BTreeMap<&str, &str> = BTreeMap::from([(from, from)]);
    let mut queue = VecDeque::from([from]);
    while let Some(unit) = queue.pop_front() {
        if unit == to {
            let mut path = vec![unit];
            while path[path.len() - 1] != from {
                path.push(came_from[path[path.len() - 1]]);
            }
            path.reverse();
            return Some(path);
        }
        for &next in edges.get(unit).into_iter().flat_map(BTreeMap::keys) {
            if !came_from.contains_key(next) {
                came_from.insert(next, unit);
                queue.push_back(next);
            }
        }
    }
    None
}

/// The layering's violations among `arrows` between units of the given layers: each arrow the layers forbid, and
/// for each arrow on a cycle the shortest cycle through it, with the `file:line` of each of the cycle's arrows.
fn layer_violations(arrows: &[Arrow], layers: &BTreeMap<String, Layer>) -> Vec<String> {
    let layer = |unit: &str| layers.get(unit).copied().unwrap_or(Layer::Loose);
    let mut found = Vec::new();
    let mut edges = Edges::new();
    for arrow in arrows.iter().filter(|arrow| arrow.from != arrow.to) {
        edges.entry(&arrow.from).or_default().entry(&arrow.to).or_insert(&arrow.at);
        if let Some(why) = forbidden(layer(&arrow.from), layer(&arrow.to)) {
            found.push(format!("{}: {} → {}: {why}", arrow.at, arrow.from, arrow.to));
        }
    }
    let mut cycles = BTreeSet::new();
    for (&from, targets) in &edges {
        for &to in targets.keys() {
            let Some(back) = shortest_path(&edges, to, from) else { continue };
            let mut cycle: Vec<&str> = std::iter::once(from).chain(back[..back.len() - 1].iter().copied()).collect();
            let first = cycle.iter().enumerate().min_by_key(|&(_, unit)| unit).map_or(0, |(at, _)| at);
            cycle.rotate_left(first);
            cycles.insert(cycle);
        }
    }
    for cycle in cycles {
        let steps: Vec<String> = (0..cycle.len())
            .map(|at| {
                let (unit, next) = (cycle[at], cycle[(at + 1) % cycle.len()]);
                format!(" → {next} ({})", edges[unit][next])
            })
            .collect();
        found.push(format!("cycle: {}{}", cycle[0], steps.concat()));
    }
    found
}

#[test]
fn the_app_is_in_layers_without_cycles() {
    let (arrows, layers) = app_arrows(&root().join("src/app"));
    let units = |layer: Layer| layers.iter().filter(|&(name, &l)| l == layer && name.contains("::")).count();
    let (core, features, views) = (units(Layer::Core), units(Layer::Feature), units(Layer::View));
    let names: Vec<&str> = layers.keys().map(String::as_str).collect();
    assert!(
        core >= 3 && features >= 8 && views >= 4,
        "src/app should be in layers, with at least 3 units in core/, 8 in features/ and 4 in view/; \
         found {core}, {features} and {views} among the units {}",
        names.join(", ")
    );
    let violations = layer_violations(&arrows, &layers);
    assert!(
        violations.is_empty(),
        "src/app's layers are crossed: the core imports only the core, a feature only the core, a view anything, \
         nothing imports src/app/mod.rs, and no units import each other in a cycle ({} problems):\n{}",
        violations.len(),
        violations.join("\n")
    );
}

#[test]
fn the_layer_check_finds_a_cycle_and_a_feature_importing_a_feature() {
    let arrow =
        |from: &str, to: &str, at: &str| Arrow { from: from.to_string(), to: to.to_string(), at: at.to_string() };
    let arrows = [
        arrow("core::a", "core::b", "a.rs:1"),
        arrow("core::b", "core::a", "b.rs:2"),
        arrow("features::x", "features::y", "x.rs:3"),
        arrow("features::x", "core::a", "x.rs:4"),
        arrow("view::v", "features::x", "v.rs:5"),
        arrow("app", "view::v", "mod.rs:6"),
    ];
    let layers: BTreeMap<String, Layer> = [
        ("app", Layer::Root),
        ("core::a", Layer::Core),
        ("core::b", Layer::Core),
        ("features::x", Layer::Feature),
        ("features::y", Layer::Feature),
        ("view::v", Layer::View),
    ]
    .into_iter()
    .map(|(name, layer)| (name.to_string(), layer))
    .collect();
    let found = layer_violations(&arrows, &layers);
    assert!(
        found.iter().any(|v| v == "cycle: core::a → core::b (a.rs:1) → core::a (b.rs:2)"),
        "the cycle between core::a and core::b is found, with its arrows: {found:#?}"
    );
    assert!(
        found.iter().any(|v| v.starts_with("x.rs:3: features::x → features::y: a feature imports no other feature")),
        "the feature importing another feature is found: {found:#?}"
    );
    assert_eq!(found.len(), 2, "the allowed arrows pass: {found:#?}");
}

/// The app's core is its bottom layer: besides itself it knows only the rules, the scenario and
/// the files, never the panels (`src/ui`), which import it, nor the command line.
#[test]
fn the_apps_core_imports_neither_the_panels_nor_the_command_line() {
    let mut files = Vec::new();
    rust_files(&root().join("src/app/core"), &mut files);
    assert!(files.len() >= 5, "found src/app/core");
    for file in files {
        let code: String = code_only(&std::fs::read_to_string(&file).expect("readable")).into_iter().collect();
        for (n, line) in code.lines().enumerate() {
            for above in ["crate::ui", "crate::cli"] {
                assert!(!line.contains(above), "{}:{}: the core names {above}", file.display(), n + 1);
            }
        }
    }
}

/// The panels and the command line sit beside the app, not inside it: the panels name only the
/// app's bottom layer (the notices they put in words), the command line only what `app/mod.rs`
/// re-exports to launch the window.
#[test]
fn the_panels_and_the_command_line_reach_into_the_app_only_by_its_front_doors() {
    for (layer, allowed, why) in [
        ("src/ui", &["core"][..], "the panels read the app's vocabulary (src/app/core) and nothing above it"),
        (
            "src/cli",
            &["run", "LaunchOptions", "SessionPlace", "Part", "FrameBenchmark"][..],
            "the command line launches the app",
        ),
    ] {
        let mut files = Vec::new();
        rust_files(&root().join(layer), &mut files);
        assert!(!files.is_empty(), "found {layer}");
        for file in files {
            let code: String = code_only(&std::fs::read_to_string(&file).expect("readable")).into_iter().collect();
            for (n, line) in code.lines().enumerate() {
                for (at, _) in line.match_indices("crate::app::") {
                    let next: String = line[at + "crate::app::".len()..].chars().take_while(|&c| is_ident(c)).collect();
                    assert!(
                        allowed.contains(&next.as_str()),
                        "{}:{}: {why}, but it names crate::app::{next}",
                        file.display(),
                        n + 1
                    );
                }
            }
        }
    }
}
