public import struct FoundationEssentials.URL

/// Nuke's call shape, so binders written against Nuke keep `Nuke.loadImage(with:into:)` as is.
///
/// ```swift
/// Nuke.loadImage(with: URL(string: url)!, into: viewController.posterImageView)
/// ```
public enum Nuke {
    /// Same as the free function `loadImage(with:into:)`: shows `url` in `imageView` when it is an
    /// http(s) or site-relative URL, and returns whether it was accepted.
    @discardableResult
    public static func loadImage(with url: URL, into imageView: ImageView) -> Bool {
        ViewKit.loadImage(with: url, into: imageView)
    }
}
