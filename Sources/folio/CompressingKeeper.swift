import Glibc
import MarkdownModel

/// Keeps a stream's parsed bytes compressed while their pages are given back
/// (`SourceKeeper`): a stream cannot be read again, and without this a piped document held
/// all its bytes until its last piece was parsed (20 MB at the top of a 21 MB changelog's
/// peak; compressed they are ~4 MB). The copy is only read if the pieces fail after all (a
/// document whose link definitions the plan misjudged); folio never writes its input to disk.
final class CompressingKeeper: SourceKeeper, @unchecked Sendable {
    private let zstd: Zstd
    private var kept: [(offset: Int, count: Int, bytes: [UInt8])] = []
    /// Where each run is compressed before it is copied out at its size (calls come one at
    /// a time).
    private var scratch: [UInt8] = []

    /// Nil when the system has no zstd (then a stream keeps its bytes, as before).
    init?() {
        guard let zstd = Zstd.shared else { return nil }
        self.zstd = zstd
    }

    /// Bytes kept, compressed.
    var keptBytes: Int { kept.reduce(0) { $0 + $1.bytes.count } }

    func keep(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> Bool {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return true }
        let bound = zstd.compressBound(bytes.count)
        if scratch.count < bound { scratch = [UInt8](repeating: 0, count: bound) }
        let size = scratch.withUnsafeMutableBytes { out in
            zstd.compress(out.baseAddress, bound, base, bytes.count, 1)
        }
        guard zstd.isError(size) == 0, size > 0 else { return false }
        kept.append((offset, bytes.count, Array(scratch[..<size])))
        return true
    }

    func restore(_ source: inout [UInt8]) {
        source.withUnsafeMutableBufferPointer { whole in
            for run in kept {
                let size = run.bytes.withUnsafeBytes { packed in
                    zstd.decompress(whole.baseAddress! + run.offset, run.count, packed.baseAddress, packed.count)
                }
                precondition(zstd.isError(size) == 0 && size == run.count, "folio: a kept run of the input did not decompress")
            }
        }
        discard()
    }

    func discard() {
        kept = []
        scratch = []
    }
}

/// zstd's one-shot functions, found at run time in libzstd.so.1 (every Debian system has it:
/// dpkg depends on it), so that folio neither links nor builds against it; nil without it.
struct Zstd: @unchecked Sendable {
    typealias Compress = @convention(c) (UnsafeMutableRawPointer?, Int, UnsafeRawPointer?, Int, Int32) -> Int
    typealias Decompress = @convention(c) (UnsafeMutableRawPointer?, Int, UnsafeRawPointer?, Int) -> Int
    typealias Bound = @convention(c) (Int) -> Int
    typealias IsError = @convention(c) (Int) -> UInt32
    let compress: Compress
    let decompress: Decompress
    let compressBound: Bound
    let isError: IsError

    static let shared: Zstd? = {
        guard let lib = dlopen("libzstd.so.1", RTLD_NOW | RTLD_LOCAL),
              let c = dlsym(lib, "ZSTD_compress"), let d = dlsym(lib, "ZSTD_decompress"),
              let b = dlsym(lib, "ZSTD_compressBound"), let e = dlsym(lib, "ZSTD_isError") else { return nil }
        return Zstd(compress: unsafeBitCast(c, to: Compress.self), decompress: unsafeBitCast(d, to: Decompress.self),
                    compressBound: unsafeBitCast(b, to: Bound.self), isError: unsafeBitCast(e, to: IsError.self))
    }()
}
