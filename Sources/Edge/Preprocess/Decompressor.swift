import CBzip2
import CLzma
import CZlib
import CZstd

/// Why decompression stopped before the end: said as a read error of the stream is, after
/// what decompressed is shown (`gzip: unexpected end of file`, as gzip(1) words it).
public enum DecompressionError: Error, Equatable, CustomStringConvertible {
    /// The input ended inside a compressed stream (a truncated or half-copied file).
    case truncated(CompressionFormat)
    /// The library found the data wrong; `detail` is its own word for it.
    case corrupt(CompressionFormat, detail: String)
    /// The library could not start (out of memory).
    case cannotStart(CompressionFormat)

    public var description: String {
        switch self {
        case .truncated(let f): return "\(f.rawValue): unexpected end of file"
        case .corrupt(let f, let detail): return "\(f.rawValue): corrupt data (\(detail))"
        case .cannotStart(let f): return "\(f.rawValue): cannot start decompressing"
        }
    }
}

/// Decompresses one file of a `CompressionFormat` as its bytes are fed in, handing out what
/// each piece of input gives (at most `outputSize` bytes at a time): memory stays bounded by
/// the library's own state and one output buffer, whatever the file's size. Not thread-safe:
/// one thread feeds it (`DecompressingPipe`).
///
/// A gzip or bzip2 file may be several compressed streams one after another (`cat a.gz b.gz`):
/// each is decompressed in turn, as `gzip -d` and `bzip2 -d` do, and bytes after the last one
/// that do not start another (zero padding) are ignored, as gzip ignores "trailing garbage".
/// liblzma takes concatenated .xz streams itself, libzstd concatenated frames.
public final class Decompressor {
    public let format: CompressionFormat
    private let decoder: any StreamDecoder
    /// The last stream ended and nothing has followed yet.
    private var betweenStreams = false
    /// Bytes after the last stream that start no other: ignored to the end.
    private var ignoringRest = false
    private let output: UnsafeMutableRawBufferPointer
    public static let outputSize = 1 << 16

    public init(format: CompressionFormat) throws(DecompressionError) {
        self.format = format
        switch format {
        case .gzip: decoder = try GzipDecoder()
        case .bzip2: decoder = try Bzip2Decoder()
        case .xz: decoder = try XzDecoder()
        case .zstd: decoder = try ZstdDecoder()
        }
        output = UnsafeMutableRawBufferPointer.allocate(byteCount: Decompressor.outputSize, alignment: 16)
    }

    deinit { output.deallocate() }

    /// Decompresses `input`, calling `emit` with each piece of output (valid only during the
    /// call; `emit` returns false to stop: then this returns false at once). `final`: no input
    /// follows; a stream left unfinished then throws `.truncated`.
    public func feed(_ input: UnsafeRawBufferPointer, final: Bool,
                     emit: (UnsafeRawBufferPointer) -> Bool) throws(DecompressionError) -> Bool {
        var rest = input
        while !ignoringRest {
            if betweenStreams {
                guard let first = rest.first else { break }
                guard decoder.mayStartStream(with: first) else { ignoringRest = true; break }
                try decoder.restart()
                betweenStreams = false
            }
            let step = try decoder.decode(rest, into: output, finishing: final)
            rest = UnsafeRawBufferPointer(rebasing: rest[step.read...])
            if step.written > 0, !emit(UnsafeRawBufferPointer(rebasing: output[0..<step.written])) { return false }
            if step.ended { betweenStreams = true; continue }
            // No progress: the decoder wants input that has not come (or, at the end, never will).
            if step.read == 0 && step.written == 0 { break }
            // All input taken and the output not filled: nothing is held back; wait for more.
            if rest.isEmpty && step.written < output.count && !final { break }
        }
        if final && !betweenStreams && !ignoringRest { throw .truncated(format) }
        return true
    }
}

/// One library's streaming decoder, used by one `Decompressor` on one thread.
protocol StreamDecoder: AnyObject {
    /// Decodes from `input` into `output`: the bytes taken and written, and whether a whole
    /// compressed stream has now ended (and all its output is written). `finishing`: no input
    /// follows what is given (liblzma must be told).
    func decode(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer,
                finishing: Bool) throws(DecompressionError) -> (read: Int, written: Int, ended: Bool)
    /// Whether a byte after an ended stream may start another one.
    func mayStartStream(with byte: UInt8) -> Bool
    /// Gets ready for another stream after one ended.
    func restart() throws(DecompressionError)
}

/// gzip through zlib's inflate. The `z_stream` lives at a fixed address: zlib's state points
/// back to it and checks that it did not move.
final class GzipDecoder: StreamDecoder {
    private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)

    init() throws(DecompressionError) {
        stream.initialize(to: z_stream())
        guard folio_inflate_init(stream) == Z_OK else {
            stream.deallocate()
            throw .cannotStart(.gzip)
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deallocate()
    }

    func decode(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer,
                finishing: Bool) throws(DecompressionError) -> (read: Int, written: Int, ended: Bool) {
        stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = uInt(input.count)
        stream.pointee.next_out = output.baseAddress?.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = uInt(output.count)
        let status = inflate(stream, Z_NO_FLUSH)
        let read = input.count - Int(stream.pointee.avail_in)
        let written = output.count - Int(stream.pointee.avail_out)
        stream.pointee.next_in = nil
        switch status {
        case Z_OK, Z_BUF_ERROR: return (read, written, false)  // (BUF_ERROR: no progress possible yet)
        case Z_STREAM_END: return (read, written, true)
        default:
            let detail = stream.pointee.msg.map { String(cString: $0) } ?? "error \(status)"
            throw .corrupt(.gzip, detail: detail)
        }
    }

    func mayStartStream(with byte: UInt8) -> Bool { byte == 0x1F }

    func restart() throws(DecompressionError) {
        guard inflateReset(stream) == Z_OK else { throw .cannotStart(.gzip) }
    }
}

/// bzip2 through libbz2. The `bz_stream` lives at a fixed address: libbz2's state points back
/// to it and checks that it did not move.
final class Bzip2Decoder: StreamDecoder {
    private let stream = UnsafeMutablePointer<bz_stream>.allocate(capacity: 1)
    private var open = false

    init() throws(DecompressionError) {
        stream.initialize(to: bz_stream())
        try start()
    }

    deinit {
        if open { BZ2_bzDecompressEnd(stream) }
        stream.deallocate()
    }

    private func start() throws(DecompressionError) {
        guard BZ2_bzDecompressInit(stream, 0, 0) == BZ_OK else { throw .cannotStart(.bzip2) }
        open = true
    }

    func decode(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer,
                finishing: Bool) throws(DecompressionError) -> (read: Int, written: Int, ended: Bool) {
        stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: CChar.self))
        stream.pointee.avail_in = UInt32(input.count)
        stream.pointee.next_out = output.baseAddress?.assumingMemoryBound(to: CChar.self)
        stream.pointee.avail_out = UInt32(output.count)
        let status = BZ2_bzDecompress(stream)
        let read = input.count - Int(stream.pointee.avail_in)
        let written = output.count - Int(stream.pointee.avail_out)
        stream.pointee.next_in = nil
        switch status {
        case BZ_OK: return (read, written, false)
        case BZ_STREAM_END: return (read, written, true)
        case BZ_DATA_ERROR_MAGIC: throw .corrupt(.bzip2, detail: "not bzip2 data")
        case BZ_DATA_ERROR: throw .corrupt(.bzip2, detail: "data integrity error")
        case BZ_MEM_ERROR: throw .corrupt(.bzip2, detail: "out of memory")
        default: throw .corrupt(.bzip2, detail: "error \(status)")
        }
    }

    func mayStartStream(with byte: UInt8) -> Bool { byte == UInt8(ascii: "B") }

    func restart() throws(DecompressionError) {
        BZ2_bzDecompressEnd(stream)
        open = false
        stream.pointee = bz_stream()
        try start()
    }
}

/// xz through liblzma, which takes concatenated streams and their padding itself
/// (`folio_lzma_xz_decoder`): it ends only when told the input is finished.
final class XzDecoder: StreamDecoder {
    private let stream = UnsafeMutablePointer<lzma_stream>.allocate(capacity: 1)

    init() throws(DecompressionError) {
        stream.initialize(to: lzma_stream())
        guard folio_lzma_xz_decoder(stream) == LZMA_OK else {
            stream.deallocate()
            throw .cannotStart(.xz)
        }
    }

    deinit {
        lzma_end(stream)
        stream.deallocate()
    }

    func decode(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer,
                finishing: Bool) throws(DecompressionError) -> (read: Int, written: Int, ended: Bool) {
        stream.pointee.next_in = input.baseAddress?.assumingMemoryBound(to: UInt8.self)
        stream.pointee.avail_in = input.count
        stream.pointee.next_out = output.baseAddress?.assumingMemoryBound(to: UInt8.self)
        stream.pointee.avail_out = output.count
        let status = lzma_code(stream, finishing ? LZMA_FINISH : LZMA_RUN)
        let read = input.count - stream.pointee.avail_in
        let written = output.count - stream.pointee.avail_out
        stream.pointee.next_in = nil
        switch status {
        case LZMA_OK: return (read, written, false)
        case LZMA_STREAM_END: return (read, written, true)
        case LZMA_BUF_ERROR: return (read, written, false)  // no progress possible: the caller decides
        case LZMA_FORMAT_ERROR: throw .corrupt(.xz, detail: "file format not recognized")
        case LZMA_OPTIONS_ERROR: throw .corrupt(.xz, detail: "unsupported options")
        case LZMA_DATA_ERROR: throw .corrupt(.xz, detail: "compressed data is corrupt")
        case LZMA_MEM_ERROR: throw .corrupt(.xz, detail: "out of memory")
        default: throw .corrupt(.xz, detail: "error \(status.rawValue)")
        }
    }

    /// (liblzma reads every stream of the file itself.)
    func mayStartStream(with byte: UInt8) -> Bool { false }

    func restart() throws(DecompressionError) {}
}

/// zstd through libzstd's streaming decoder, which reads frame after frame by itself.
final class ZstdDecoder: StreamDecoder {
    private let context: OpaquePointer

    init() throws(DecompressionError) {
        guard let context = ZSTD_createDStream() else { throw .cannotStart(.zstd) }
        self.context = context
        guard ZSTD_isError(ZSTD_initDStream(context)) == 0 else {
            ZSTD_freeDStream(context)
            throw .cannotStart(.zstd)
        }
    }

    deinit { ZSTD_freeDStream(context) }

    func decode(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer,
                finishing: Bool) throws(DecompressionError) -> (read: Int, written: Int, ended: Bool) {
        var inBuffer = ZSTD_inBuffer(src: input.baseAddress, size: input.count, pos: 0)
        var outBuffer = ZSTD_outBuffer(dst: output.baseAddress, size: output.count, pos: 0)
        let hint = ZSTD_decompressStream(context, &outBuffer, &inBuffer)
        if ZSTD_isError(hint) != 0 {
            throw .corrupt(.zstd, detail: String(cString: ZSTD_getErrorName(hint)))
        }
        // 0: a frame is complete and all of it written out.
        return (inBuffer.pos, outBuffer.pos, hint == 0)
    }

    /// (libzstd starts the next frame by itself; bytes that are no frame are an error.)
    func mayStartStream(with byte: UInt8) -> Bool { true }

    func restart() throws(DecompressionError) {}
}
