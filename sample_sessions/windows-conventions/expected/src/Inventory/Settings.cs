using System.Text.Json;

namespace Inventory;

public sealed class Settings
{
    public int LowStockThreshold { get; init; } = 5;

    public string? ReorderEmail { get; init; }

    public static Settings Load(string path)
    {
        if (!File.Exists(path))
        {
            return new Settings();
        }

        using var stream = File.OpenRead(path);
        using var doc = JsonDocument.Parse(stream);
        var section = doc.RootElement.GetProperty("Inventory");
        return section.Deserialize<Settings>() ?? new Settings();
    }
}
