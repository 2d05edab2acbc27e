//! Rules 6–7 and the header media limits: a media header's file, a text header's text.

use serde_json::Value;

use super::{Checked, Mode, fail, length, text, variables};
use crate::media::FileKind;
use crate::templates::media::{
    HEADER_DOCUMENT_MAX, HEADER_IMAGE_MAX, HEADER_VIDEO_MAX, HeaderFile,
};

pub const HEADER_TEXT_MAX: usize = 60;

fn header_format(header: &Value) -> String {
    text(header, "format").to_ascii_uppercase()
}

pub(super) fn is_text_header(header: Option<&Value>) -> bool {
    header.is_some_and(|h| header_format(h) == "TEXT")
}

/// Rule 6 and the media table: a media header needs a file of the right kind and size.
pub(super) fn check_media_header(header: &Value, file: Option<&HeaderFile>) -> Checked {
    let (noun, accepted, max, type_message, size_message): (_, &[FileKind], _, _, _) =
        match header_format(header).as_str() {
            "IMAGE" => (
                "An image",
                &[FileKind::Png, FileKind::Jpeg],
                HEADER_IMAGE_MAX,
                "The header image must be a PNG or JPEG file.",
                "The header image must be at most 5 MB.",
            ),
            "DOCUMENT" => (
                "A document",
                &[FileKind::Pdf],
                HEADER_DOCUMENT_MAX,
                "The header document must be a PDF file.",
                "The header document must be at most 100 MB.",
            ),
            "VIDEO" => (
                "A video",
                &[FileKind::Mp4],
                HEADER_VIDEO_MAX,
                "The header video must be an MP4 file.",
                "The header video must be at most 16 MB.",
            ),
            _ => return Ok(()),
        };
    let Some(file) = file else {
        return fail(
            "header_file_required",
            format!("{noun} header needs a file."),
        );
    };
    if !accepted.contains(&file.kind) {
        return fail("header_file_type", type_message);
    }
    if file.size > max {
        return fail("header_file_size", size_message);
    }
    Ok(())
}
/// Rule 7: a text header's text, example, length and single variable.
pub(super) fn check_text_header(header: &Value, mode: Mode) -> Checked {
    if header_format(header) != "TEXT" {
        return Ok(());
    }
    let header_text = text(header, "text");
    if header_text.is_empty() {
        return fail("header_text_required", "Header text is required.");
    }
    let vars = variables(header_text);
    let example = header.get("example").unwrap_or(&Value::Null);
    let named_example = example
        .get("header_text_named_params")
        .and_then(|p| p.get(0))
        .unwrap_or(&Value::Null);
    let example_value = match mode {
        Mode::Positional => example
            .get("header_text")
            .and_then(|e| e.get(0))
            .and_then(Value::as_str)
            .unwrap_or("")
            .trim(),
        Mode::Named => text(named_example, "example"),
    };
    if !vars.is_empty() && example_value.is_empty() {
        return fail(
            "header_example",
            "The header variable needs an example value.",
        );
    }
    if length(header_text) > HEADER_TEXT_MAX {
        return fail(
            "header_length",
            "Header text must be at most 60 characters.",
        );
    }
    if vars.len() > 1 {
        return fail(
            "header_variable_count",
            "The header can have only one variable.",
        );
    }
    let Some(var) = vars.first() else {
        return Ok(());
    };
    match mode {
        Mode::Positional if var != "1" => {
            fail("header_variable_name", "The header variable must be {{1}}.")
        }
        Mode::Named if var.is_empty() => {
            fail("header_variable_name", "The header variable needs a name.")
        }
        Mode::Named if text(named_example, "param_name") != var => fail(
            "header_example",
            format!("The header example must be given for {{{{{var}}}}}."),
        ),
        _ => Ok(()),
    }
}
