/// A paragraph that holds only images: the images a README puts on a line of their own (a
/// logo, a screenshot) and its badge walls (`[![CI](…badge.svg)](…) [![PyPI](…)](…)`).
public struct ImageReference: Sendable, Equatable {
    /// The image's source as written (a path relative to the document, `file://`, a URL).
    public var source: String
    /// The alt text (the image's children as plain text).
    public var alt: String
    /// The destination of the link the image sits in, if it does.
    public var link: String?

    public init(source: String, alt: String, link: String? = nil) {
        self.source = source; self.alt = alt; self.link = link
    }

    /// Fetched over the network (never by folio): `http:`, `https:`, `//host` and `data:`
    /// are never read; anything else is a file (relative, absolute or `file://`).
    public var isRemote: Bool {
        let s = source.lowercased()
        return s.hasPrefix("http://") || s.hasPrefix("https://") || s.hasPrefix("//") || s.hasPrefix("data:")
            || s.hasPrefix("ftp://")
    }
}

public enum ImageParagraph {
    /// What a paragraph of images is shown as.
    public enum Shape: Sendable, Equatable {
        /// Each image on rows of its own (a local image as a picture; a remote one as its
        /// placeholder line).
        case pictures([ImageReference])
        /// A badge wall: one line of labels, `[CI] [PyPI] [license]`, no URL in the page.
        case badges([ImageReference])
    }

    /// The images of `inlines` when it holds nothing else (each image alone or alone in a
    /// link; white space, soft and hard breaks between them); nil otherwise.
    public static func images(_ inlines: Inlines) -> [ImageReference]? {
        let nodes = inlines.nodes
        var found: [ImageReference] = []
        var i = 0
        func image(at k: Int, link: String?) -> ImageReference? {
            guard case .image(let source, _) = nodes[k].kind else { return nil }
            var alt = ""
            for child in nodes[(k + 1)..<(k + 1 + nodes[k].descendantCount)] {
                switch child.kind {
                case .text(let t), .code(let t), .html(let t): alt += t
                case .softBreak, .lineBreak: alt += " "
                default: break
                }
            }
            return ImageReference(source: source, alt: alt, link: link)
        }
        while i < nodes.count {
            let node = nodes[i]
            switch node.kind {
            case .softBreak, .lineBreak: break
            case .text(let s) where s.allSatisfy({ $0 == " " || $0 == "\t" }): break
            case .image:
                guard let ref = image(at: i, link: nil) else { return nil }
                found.append(ref)
            case .link(let destination, _, _):
                // A link whose content is one image (white space around it allowed).
                var k = i + 1, inner: ImageReference? = nil
                let end = i + 1 + node.descendantCount
                while k < end {
                    switch nodes[k].kind {
                    case .image where inner == nil:
                        inner = image(at: k, link: destination)
                        k += 1 + nodes[k].descendantCount
                        continue
                    case .text(let s) where s.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\n" }): break
                    case .softBreak, .lineBreak: break
                    default: return nil
                    }
                    k += 1
                }
                guard let inner else { return nil }
                found.append(inner)
                i = end
                continue
            default: return nil
            }
            i += 1 + node.descendantCount
        }
        return found.isEmpty ? nil : found
    }

    /// How a paragraph of images shows. Two or more images of which one is a link or comes
    /// from the network are a badge wall (shields.io, CI status, package versions: small
    /// pictures of words, whose alt text says what they say); otherwise each image shows on
    /// its own rows.
    public static func shape(_ inlines: Inlines) -> Shape? {
        guard let refs = images(inlines) else { return nil }
        if refs.count >= 2, refs.contains(where: { $0.link != nil || $0.isRemote }) { return .badges(refs) }
        return .pictures(refs)
    }
}
