//! The page's text reads in every theme: each foreground/background pair `web/style.css`
//! lists (its `contrast:` lines) reaches 4.5:1, WCAG AA's contrast for text, with the
//! colours of every theme (`[data-theme='…']` blocks, a theme taking what it does not
//! set from the first); and every colour the stylesheet gives text (`color:` or an SVG
//! text's `fill:`) is a foreground of a listed pair, so a new one cannot go unchecked.

use std::collections::BTreeMap;

const CSS: &str = include_str!("../../web/style.css");
const AA: f64 = 4.5;

type Theme = BTreeMap<String, String>;

/// The stylesheet without its comments.
fn rules() -> String {
    let mut out = String::new();
    let mut rest = CSS;
    while let Some(at) = rest.find("/*") {
        out.push_str(&rest[..at]);
        rest = rest[at..]
            .find("*/")
            .map_or("", |end| &rest[at + end + 2..]);
    }
    out.push_str(rest);
    out
}

/// The themes by name, each with every variable it has (its own over the first's).
fn themes() -> Vec<(String, Theme)> {
    let mut out: Vec<(String, Theme)> = Vec::new();
    let css = rules();
    let mut rest = css.as_str();
    while let Some(at) = rest.find("[data-theme='") {
        let after = &rest[at + "[data-theme='".len()..];
        let name = after[..after.find('\'').expect("a theme's name ends")].to_string();
        let open = after.find('{').expect("a theme's block");
        let close = after[open..].find('}').expect("a theme's block ends") + open;
        let mut vars = out.first().map(|(_, t)| t.clone()).unwrap_or_default();
        for decl in after[open + 1..close].split(';') {
            if let Some((k, v)) = decl.split_once(':')
                && k.trim().starts_with("--")
            {
                vars.insert(k.trim().to_string(), v.trim().to_string());
            }
        }
        out.push((name, vars));
        rest = &after[close..];
    }
    out
}

/// `#rgb` or `#rrggbb` as red, green, blue; `None` for anything else.
fn hex(text: &str) -> Option<[f64; 3]> {
    let h = text.trim().strip_prefix('#')?;
    let h: String = match h.len() {
        3 => h.chars().flat_map(|c| [c, c]).collect(),
        6 => h.to_string(),
        _ => return None,
    };
    let byte = |i: usize| u8::from_str_radix(&h[i..i + 2], 16).ok().map(f64::from);
    Some([byte(0)?, byte(2)?, byte(4)?])
}

/// A colour as written in a pair (`--var` or `#hex`) in `theme`.
fn colour(theme: &Theme, name: &str) -> [f64; 3] {
    let value = if name.starts_with("--") {
        theme
            .get(name)
            .unwrap_or_else(|| panic!("{name} is in no theme"))
            .as_str()
    } else {
        name
    };
    hex(value).unwrap_or_else(|| panic!("{name} is {value}: write text colours as #hex"))
}

/// WCAG's relative luminance.
fn luminance([r, g, b]: [f64; 3]) -> f64 {
    let c = |v: f64| {
        let v = v / 255.0;
        if v <= 0.03928 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * c(r) + 0.7152 * c(g) + 0.0722 * c(b)
}

fn ratio(a: [f64; 3], b: [f64; 3]) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// The pairs the stylesheet lists: (foreground, background).
fn pairs() -> Vec<(String, String)> {
    CSS.lines()
        .filter_map(|l| l.trim().strip_prefix("contrast:"))
        .flat_map(|l| l.split_whitespace())
        .map(|p| {
            let (f, b) = p.split_once('/').expect("a pair is foreground/background");
            (f.to_string(), b.to_string())
        })
        .collect()
}

#[test]
fn every_theme_s_text_has_aa_contrast() {
    let themes = themes();
    let names: Vec<&str> = themes.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["light", "dark"], "the themes the page offers");
    let pairs = pairs();
    assert!(pairs.len() > 10, "the pairs are listed: {pairs:?}");
    let mut low = Vec::new();
    for (name, theme) in &themes {
        for (f, b) in &pairs {
            let r = ratio(colour(theme, f), colour(theme, b));
            if r < AA {
                low.push(format!("{name}: {f} on {b} is {r:.2}:1"));
            }
        }
    }
    assert!(low.is_empty(), "text below 4.5:1:\n{}", low.join("\n"));
}

#[test]
fn every_text_colour_of_the_stylesheet_is_checked() {
    let listed: Vec<String> = pairs().into_iter().map(|(f, _)| f).collect();
    let mut unchecked = Vec::new();
    for decl in rules().split([';', '{', '}']) {
        let Some((property, value)) = decl.split_once(':') else {
            continue;
        };
        let property = property.trim();
        let value = value.trim();
        let text = property == "color" || (property == "fill" && decl.contains("river"));
        if !text || matches!(value, "inherit" | "currentColor" | "transparent") {
            continue;
        }
        let name = value
            .strip_prefix("var(")
            .and_then(|v| v.strip_suffix(')'))
            .unwrap_or(value);
        if !listed.iter().any(|l| l == name) {
            unchecked.push(format!("{property}: {value}"));
        }
    }
    assert!(
        unchecked.is_empty(),
        "text colours no contrast: line lists:\n{}",
        unchecked.join("\n")
    );
}

#[test]
fn the_dark_theme_s_caro_coordinates_read() {
    // The play-through's finding: the coordinates were the wood's line colour on the
    // page's background, 1.3:1 in the dark theme.
    let start = CSS
        .find(".caro-grid .coord")
        .expect("the coordinates' rule");
    let rule = &CSS[start..start + CSS[start..].find('}').expect("its end")];
    let fg = rule
        .split(';')
        .find_map(|d| d.trim().strip_prefix("color:"))
        .and_then(|v| v.trim().strip_prefix("var("))
        .and_then(|v| v.strip_suffix(')'))
        .expect("the coordinates' colour is a variable");
    for (name, theme) in themes() {
        let r = ratio(colour(&theme, fg), colour(&theme, "--bg"));
        assert!(r >= AA, "{name}: coordinates at {r:.2}:1");
    }
}
