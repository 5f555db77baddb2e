// Effects at the edge: finds the image plugin, reads image files, decodes and draws them.
import CImages
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LineLayout
import Threads

/// folio's image codec (`folio-images.so`, built beside the grammars by
/// `scripts/build-grammars.sh` from `Native/images/folio-images.c`): decoding with libpng,
/// libjpeg-turbo, giflib, libwebp and librsvg, drawing with libchafa. Loaded on the first
/// image shown, never at start (those libraries and theirs are some twenty shared objects).
public final class ImageCodec: Sendable {
    private let api: SharedCObject

    /// Pixels an image may have at most: a 40-megapixel picture is 160 MB decoded; larger ones
    /// (or a small file claiming a huge size: a decompression bomb) show as their caption.
    public static let maxPixels = 40_000_000
    /// Bytes of an image file read at most.
    public static let maxFileBytes = 64 << 20
    /// The plugin's file name.
    public static let pluginFile = "folio-images.so"

    private init(api: OpaquePointer) { self.api = SharedCObject(api) }

    private var table: UnsafePointer<FolioImagesAPI> { UnsafePointer(api.pointer) }

    /// The codec from the first directory of `searchPath` holding the plugin, or why there is none.
    public static func load(searchPath: [String]) -> Result<ImageCodec, LoadFailure> {
        for dir in searchPath {
            let path = dir + "/" + pluginFile
            guard access(path, R_OK) == 0 else { continue }
            var problem: UnsafePointer<CChar>? = nil
            guard let table = folio_images_load(path, &problem) else {
                return .failure(LoadFailure(description: "\(path): " + (problem.map { String(cString: $0) } ?? "not loaded")))
            }
            return .success(ImageCodec(api: OpaquePointer(table)))
        }
        return .failure(LoadFailure(description: "\(pluginFile) not found (make grammars builds it)"))
    }

    public struct LoadFailure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The image in `bytes` (PNG, JPEG, GIF's first frame, WebP, SVG), or nil.
    public func decode(_ bytes: [UInt8]) -> DecodedImage? {
        var w: Int32 = 0, h: Int32 = 0
        let table = self.table
        guard let px = bytes.withUnsafeBufferPointer({ table.pointee.decode($0.baseAddress, $0.count, Self.maxPixels, &w, &h) }) else {
            return nil
        }
        defer { table.pointee.free(px) }
        let count = Int(w) * Int(h) * 4
        return DecodedImage(width: Int(w), height: Int(h), pixels: Array(UnsafeBufferPointer(start: px, count: count)))
    }

    /// `image` drawn as `cols` x `rows` cells of block elements, transparent parts over
    /// `background` (0xRRGGBB).
    public func cells(_ image: DecodedImage, cols: Int, rows: Int, background: UInt32) -> [PictureCell]? {
        let n = cols * rows
        guard n > 0 else { return nil }
        var chars = [UInt32](repeating: 0x20, count: n)
        var fg = [Int32](repeating: -1, count: n), bg = [Int32](repeating: -1, count: n)
        let table = self.table
        let ok = image.pixels.withUnsafeBufferPointer { px in
            table.pointee.symbols(px.baseAddress, Int32(image.width), Int32(image.height), Int32(cols), Int32(rows),
                                  background, &chars, &fg, &bg)
        }
        guard ok != 0 else { return nil }
        return (0..<n).map { k in
            PictureCell(character: Unicode.Scalar(chars[k]).flatMap { $0.value >= 0x20 ? $0 : nil } ?? " ",
                        foreground: fg[k] < 0 ? nil : UInt32(fg[k]), background: bg[k] < 0 ? nil : UInt32(bg[k]))
        }
    }

    /// `image` resampled to `width` x `height` pixels.
    public func scaled(_ image: DecodedImage, width: Int, height: Int) -> DecodedImage? {
        if width == image.width && height == image.height { return image }
        let table = self.table
        guard let px = image.pixels.withUnsafeBufferPointer({
            table.pointee.scale($0.baseAddress, Int32(image.width), Int32(image.height), Int32(width), Int32(height))
        }) else { return nil }
        defer { table.pointee.free(px) }
        return DecodedImage(width: width, height: height, pixels: Array(UnsafeBufferPointer(start: px, count: width * height * 4)))
    }

    /// `image` as a PNG file.
    public func png(_ image: DecodedImage) -> [UInt8]? {
        var length = 0
        let table = self.table
        guard let bytes = image.pixels.withUnsafeBufferPointer({
            table.pointee.png($0.baseAddress, Int32(image.width), Int32(image.height), &length)
        }) else { return nil }
        defer { table.pointee.free(bytes) }
        return Array(UnsafeBufferPointer(start: bytes, count: length))
    }

    /// Rows `rows` of `image` (a band across its whole width).
    public static func band(_ image: DecodedImage, rows: Range<Int>) -> DecodedImage {
        let r = max(0, rows.lowerBound)..<min(image.height, max(rows.lowerBound + 1, rows.upperBound))
        return DecodedImage(width: image.width, height: r.count,
                            pixels: Array(image.pixels[(r.lowerBound * image.width * 4)..<(r.upperBound * image.width * 4)]))
    }

    /// `image` as sixel data filling `cols` x `rows` cells of `cellWidth` x `cellHeight` pixels.
    public func sixel(_ image: DecodedImage, cols: Int, rows: Int, cellWidth: Int, cellHeight: Int,
                      background: UInt32) -> [UInt8]? {
        var length = 0
        let table = self.table
        guard let s = image.pixels.withUnsafeBufferPointer({ px in
            table.pointee.sixel(px.baseAddress, Int32(image.width), Int32(image.height), Int32(cols), Int32(rows),
                                Int32(cellWidth), Int32(cellHeight), background, &length)
        }) else { return nil }
        defer { table.pointee.free(s) }
        return Array(UnsafeRawBufferPointer(start: s, count: length))
    }
}

/// Where an image's source points on this machine.
public enum ImageFiles {
    /// The file of a local image source (`logo.png`, `./docs/a.svg`, `/abs/x.gif`,
    /// `file:///x.png`; percent escapes decoded, `?query` and `#fragment` dropped), relative
    /// to `directory` (the document's folder; the working directory for a pipe); nil for an
    /// image on the network.
    public static func path(of source: String, relativeTo directory: String?) -> String? {
        var s = Substring(source)
        let lower = source.lowercased()
        if lower.hasPrefix("http:") || lower.hasPrefix("https:") || lower.hasPrefix("//") || lower.hasPrefix("data:")
            || lower.hasPrefix("ftp:") { return nil }
        if lower.hasPrefix("file://") {
            s = s.dropFirst(7)
            if s.hasPrefix("localhost/") { s = s.dropFirst(9) }
            guard s.hasPrefix("/") else { return nil }
        }
        if let cut = s.firstIndex(where: { $0 == "?" || $0 == "#" }) { s = s[..<cut] }
        guard !s.isEmpty else { return nil }
        let path = percentDecoded(String(s))
        if path.hasPrefix("/") { return path }
        return (directory.map { $0.hasSuffix("/") ? $0 : $0 + "/" } ?? "") + path
    }

    static func percentDecoded(_ s: String) -> String {
        guard s.contains("%") else { return s }
        var out: [UInt8] = []
        let b = Array(s.utf8)
        var i = 0
        func hex(_ c: UInt8) -> UInt8? {
            switch c {
            case 0x30...0x39: return c - 0x30
            case 0x41...0x46: return c - 0x41 + 10
            case 0x61...0x66: return c - 0x61 + 10
            default: return nil
            }
        }
        while i < b.count {
            if b[i] == 0x25, i + 2 < b.count, let h = hex(b[i + 1]), let l = hex(b[i + 2]), h << 4 | l != 0 {
                out.append(h << 4 | l); i += 3
            } else {
                out.append(b[i]); i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of a regular file of at most `ImageCodec.maxFileBytes` (never a FIFO or a
    /// device: opening one could block).
    public static func read(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_size <= ImageCodec.maxFileBytes else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(st.st_size))
        var got = 0
        while got < bytes.count {
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + got, $0.count - got, off_t(got)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            got += n
        }
        return got == bytes.count ? bytes : Array(bytes[..<got])
    }
}
