public import struct FoundationEssentials.URL

/// Shows the image at `url` in `imageView` (the shape of Nuke's `loadImage(with:into:)`).
///
/// The browser does the loading: the image view renders a lazily loaded `<img>` with its
/// placeholder until the source is set. Only `http:`/`https:` URLs and site-relative paths are
/// accepted; any other URL leaves the placeholder in place and returns `false`.
///
/// ```swift
/// if let url = data.posterURL.flatMap(URL.init(string:)) {
///     loadImage(with: url, into: viewController.posterImageView)
/// }
/// ```
@discardableResult
public func loadImage(with url: URL, into imageView: ImageView) -> Bool {
    let source = url.absoluteString
    guard ImageView.isAllowedSource(source) else {
        imageView.imageURL = nil
        return false
    }
    imageView.imageURL = source
    return true
}
