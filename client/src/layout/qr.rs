//! The browser address as a QR code made of text: two modules per character cell
//! (`▀▄█`) with the standard quiet zone. The lobby gives it room when the terminal has
//! some; [`crate::ui`] draws it dark on light.

use qrcode::QrCode;
use qrcode::render::unicode::Dense1x2;

/// The code's lines for `url`, or `None` if it cannot be encoded (far too long).
pub fn lines(url: &str) -> Option<Vec<String>> {
    let code = QrCode::new(url.as_bytes()).ok()?;
    let text = code
        .render::<Dense1x2>()
        .dark_color(Dense1x2::Dark)
        .light_color(Dense1x2::Light)
        .quiet_zone(true)
        .build();
    Some(text.lines().map(str::to_string).collect())
}

/// Its width and height in character cells.
pub fn size(lines: &[String]) -> (u16, u16) {
    let width = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    (width as u16, lines.len() as u16)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lan_address_makes_a_small_square_code() {
        let code = lines("http://192.168.1.20:7373/").unwrap();
        let (w, h) = size(&code);
        // Version 2: 25 modules and 4 of quiet zone each side; two rows per line.
        assert_eq!(w, 33);
        assert_eq!(h, 17);
        assert!(code.iter().any(|l| l.contains('█')));
    }
}
