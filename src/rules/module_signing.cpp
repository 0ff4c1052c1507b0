// Where DKMS keeps the key it signs modules with: Ubuntu's shim-signed package generates
// /var/lib/shim-signed/mok/MOK.der (wiki.ubuntu.com/UEFI/SecureBoot/DKMS); Debian's dkms generates
// /var/lib/dkms/mok.pub (wiki.debian.org/SecureBoot, "DKMS and secure boot").
#include "rules/module_signing.h"

namespace gpudoctor {
namespace {

constexpr const char* kDebianSecureBoot = "https://wiki.debian.org/SecureBoot#DKMS_and_secure_boot";
constexpr const char* kUbuntuSecureBoot = "https://wiki.ubuntu.com/UEFI/SecureBoot/DKMS";

}  // namespace

void AddDkmsKeyEnrollment(const RuleContext& ctx, Finding& f) {
  const std::string& distro = ctx.snap.os.distro_id;
  if (IsUbuntuFamily(distro)) {
    f.fix.push_back(FixAction::Bash("sudo mokutil --import /var/lib/shim-signed/mok/MOK.der"));
    f.link = kUbuntuSecureBoot;
  } else if (distro == "debian") {
    f.fix.push_back(FixAction::Bash("sudo mokutil --import /var/lib/dkms/mok.pub"));
    f.link = kDebianSecureBoot;
  } else {
    f.fix.push_back(
        FixAction::Manual("enroll the public key your module signing uses: sudo mokutil --import KEY"));
    f.link = kDebianSecureBoot;
  }
  f.fix.push_back(
      FixAction::Manual("reboot; in MOK Manager choose Enroll MOK and type the password you set"));
  f.alternatives.push_back(FixOption{"turn Secure Boot off in the firmware settings", {}, ""});
}

}  // namespace gpudoctor
