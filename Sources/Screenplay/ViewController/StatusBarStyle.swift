internal import ViewKit

/// How the page shell styles the area above the screen, like `UIStatusBarStyle`.
///
/// The layout reflects it as a class on `<html>` (`status-default` or `status-light`) and as the page's
/// `theme-color`.
public enum StatusBarStyle: Sendable, Equatable {
    /// Dark content on a light background.
    case `default`
    /// Light content on a dark background.
    case lightContent

    var className: String {
        switch self {
        case .default: "status-default"
        case .lightContent: "status-light"
        }
    }

    /// A class list of `className` alone, one for all screens: a layout whose `<html>` has no classes of its own
    /// takes it as it is instead of making its own.
    var soleClassList: ClassList {
        switch self {
        case .default: Self.defaultClassList
        case .lightContent: Self.lightContentClassList
        }
    }
    private static let defaultClassList: ClassList = ["status-default"]
    private static let lightContentClassList: ClassList = ["status-light"]

    var themeColor: String {
        switch self {
        case .default: "#f7f7f8"
        case .lightContent: "#121417"
        }
    }
}
