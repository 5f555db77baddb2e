extension Document {
    /// A tree dump for tests and debugging: one line per block in pre-order, indented two
    /// spaces per depth.
    ///
    /// ```
    /// Document @1-9 #0
    ///   Heading @1-1 #1 level 2 "Title"
    ///   Paragraph @3-4 #2 "text with *emph*↵and more"
    ///   List @6-7 #3 bullet - tight
    ///     Item @6-6 #4 task checked
    ///       Paragraph @6-6 #5 "done"
    ///   CodeBlock @8-8 #6 indented "" "code\n"
    ///   Table @9-11 #7 cols 2 [left,none] rows 1
    ///     | head | cell |
    ///     | a | b |
    /// ```
    /// `@first-last` are the source lines, `#n` the `BlockID`. Lists print `bullet <char>` or
    /// `ordered <start> <delimiter>`, then `tight`/`loose`. Code blocks print `fenced` or
    /// `indented`, the quoted info string and literal. A table prints its header row and then
    /// each body row on lines of their own, one level deeper (cells are not blocks).
    ///
    /// Quoted text uses inline notation: `*emphasis*`, `**strong**`, `~~strikethrough~~`,
    /// `` `code` ``, `[text](destination "title")`, `![alt](source "title")` (titles only when
    /// present), `<destination>` for an autolink whose text is its destination and
    /// `<text→destination>` otherwise; inline HTML as written; `↵` a soft break, `⏎` a hard
    /// break. Newlines print as `\n`, tabs as `\t`, other control characters as `\u{XX}`;
    /// quotes and backslashes are not escaped. In table rows `|` in a cell prints as `\|`.
    ///
    /// - Parameter maxTextLength: quoted texts longer than this many characters are cut and
    ///   end in `…`.
    public func dump(maxTextLength: Int = .max) -> String {
        var out = ""
        for block in blocks {
            let indent = String(repeating: "  ", count: block.depth)
            out += indent
            out += Self.headline(block, maxTextLength: maxTextLength)
            out += "\n"
            if case .table(let table) = block.kind {
                for row in [table.header] + table.rows {
                    out += indent + "  |"
                    for cell in row {
                        let text = DumpText.cut(DumpText.inline(cell), maxTextLength)
                        out += " " + text.replacingPipes() + " |"
                    }
                    out += "\n"
                }
            }
        }
        return out
    }

    private static func headline(_ block: Block, maxTextLength: Int) -> String {
        let position = "@\(block.source.first)-\(block.source.last) \(block.id)"
        func quoted(_ text: String) -> String { "\"" + DumpText.cut(text, maxTextLength) + "\"" }
        switch block.kind {
        case .document:
            return "Document \(position)"
        case .blockQuote:
            return "BlockQuote \(position)"
        case .alert(let kind):
            return "Alert \(position) \(kind.rawValue)"
        case .summary(let inlines):
            return "Summary \(position) \(quoted(DumpText.inline(inlines)))"
        case .frontMatter(let literal, let toml):
            return "FrontMatter \(position) \(toml ? "toml" : "yaml") \(quoted(DumpText.escaped(literal)))"
        case .list(let info):
            let type = info.ordered ? "ordered \(info.start) \(info.delimiter)" : "bullet \(info.delimiter)"
            return "List \(position) \(type) \(info.tight ? "tight" : "loose")"
        case .item(let info):
            switch info.task {
            case nil: return "Item \(position)"
            case .unchecked?: return "Item \(position) task unchecked"
            case .checked?: return "Item \(position) task checked"
            }
        case .paragraph(let inlines):
            return "Paragraph \(position) \(quoted(DumpText.inline(inlines)))"
        case .heading(let level, let inlines):
            return "Heading \(position) level \(level) \(quoted(DumpText.inline(inlines)))"
        case .codeBlock(let info, let literal, let fenced):
            return "CodeBlock \(position) \(fenced ? "fenced" : "indented") \(quoted(DumpText.escaped(info))) \(quoted(DumpText.escaped(literal)))"
        case .htmlBlock(let html):
            return "HTMLBlock \(position) \(quoted(DumpText.escaped(html)))"
        case .thematicBreak:
            return "ThematicBreak \(position)"
        case .table(let table):
            let alignments = table.alignments.map { alignment -> String in
                switch alignment {
                case .none: return "none"
                case .left: return "left"
                case .center: return "center"
                case .right: return "right"
                }
            }
            return "Table \(position) cols \(table.alignments.count) [\(alignments.joined(separator: ","))] rows \(table.rows.count)"
        }
    }
}

/// The inline notation of `Document.dump()`.
enum DumpText {
    static func inline(_ inlines: Inlines) -> String {
        var out = ""
        // Closing text of the open containers, with the index of their last descendant.
        var closers: [(end: Int, text: String)] = []
        let nodes = inlines.nodes
        for (index, node) in nodes.enumerated() {
            switch node.kind {
            case .text(let text): out += escaped(text)
            case .code(let text): out += "`" + escaped(text) + "`"
            case .html(let html): out += escaped(html)
            case .softBreak: out += "↵"
            case .lineBreak: out += "⏎"
            case .emphasis: out += "*"; closers.append((index + node.descendantCount, "*"))
            case .strong: out += "**"; closers.append((index + node.descendantCount, "**"))
            case .strikethrough: out += "~~"; closers.append((index + node.descendantCount, "~~"))
            case .link(let destination, let title, let autolink):
                if autolink {
                    let text = Inlines(Array(nodes[(index + 1)..<(index + 1 + node.descendantCount)])).plainText
                    out += "<"
                    closers.append((index + node.descendantCount, text == destination ? ">" : "→" + escaped(destination) + ">"))
                } else {
                    out += "["
                    closers.append((index + node.descendantCount, "](" + escaped(destination) + titled(title) + ")"))
                }
            case .image(let source, let title):
                out += "!["
                closers.append((index + node.descendantCount, "](" + escaped(source) + titled(title) + ")"))
            }
            while let last = closers.last, last.end <= index {
                out += last.text
                closers.removeLast()
            }
        }
        return out
    }

    private static func titled(_ title: String) -> String { title.isEmpty ? "" : " \"" + escaped(title) + "\"" }

    static func escaped(_ text: String) -> String {
        var needs = false
        for byte in text.utf8 where byte < 0x20 || byte == 0x7F { needs = true; break }
        guard needs else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\u{0}"..."\u{1F}", "\u{7F}":
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\u{" + (hex.count < 2 ? "0" + hex : hex) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func cut(_ text: String, _ maxLength: Int) -> String {
        guard maxLength < Int.max, text.count > maxLength else { return text }
        return String(text.prefix(maxLength)) + "…"
    }
}

private extension String {
    func replacingPipes() -> String {
        guard utf8.contains(UInt8(ascii: "|")) else { return self }
        var out = ""
        for character in self { if character == "|" { out += "\\|" } else { out.append(character) } }
        return out
    }
}
